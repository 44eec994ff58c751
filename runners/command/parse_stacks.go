package command

import (
	"fmt"
	"io"
	"os"

	"github.com/tausik/tausik/facts"
)

// The parsers of the stack gates' tools.
const (
	ParserCargo   Parser = "cargo"   // `cargo check|clippy|test --message-format=json` on stdout
	ParserPHPCS   Parser = "phpcs"   // `phpcs --report=json` on stdout
	ParserPHPStan Parser = "phpstan" // `phpstan analyse --error-format=json` on stdout
	ParserPHPUnit Parser = "phpunit" // JUnit XML `phpunit --log-junit` writes to {junitxml}
)

// stackParsers are the parsers parseStack knows.
var stackParsers = []Parser{ParserCargo, ParserPHPCS, ParserPHPStan, ParserPHPUnit}

// writesReport reports whether the tool writes its results to {junitxml}
// rather than to stdout.
func writesReport(p Parser) bool { return p == ParserPytest || p == ParserPHPUnit }

// parseStack fills res from the output of a stack gate's tool; handled is
// false for a parser it does not know.
func parseStack(p Parser, res *facts.Command, out outcome, root, junitPath string) (handled bool, err error) {
	switch p {
	case ParserPHPUnit:
		data, err := readReport(junitPath)
		if err != nil {
			return true, err
		}
		res.Tests, err = ParsePHPUnit(data, root)
		return true, err
	case ParserCargo, ParserPHPCS, ParserPHPStan:
	default:
		return false, nil
	}
	if !out.stdout.complete() {
		return true, fmt.Errorf("stdout over %d bytes, too large to parse", parseLimit)
	}
	switch p {
	case ParserCargo:
		res.Diagnostics, res.Tests, err = ParseCargo(out.stdout.head, root)
	case ParserPHPCS:
		res.Diagnostics, err = ParsePHPCS(out.stdout.head, root)
	case ParserPHPStan:
		res.Diagnostics, err = ParsePHPStan(out.stdout.head, root)
	}
	return true, err
}

// readReport reads the report a tool wrote at p, bounded.
func readReport(p string) ([]byte, error) {
	f, err := os.Open(p)
	if os.IsNotExist(err) {
		return nil, fmt.Errorf("the tool wrote no report")
	}
	if err != nil {
		return nil, fmt.Errorf("open report: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, parseLimit+1))
	if err != nil {
		return nil, fmt.Errorf("read report: %w", err)
	}
	if len(data) > parseLimit {
		return nil, fmt.Errorf("report over %d bytes, too large to parse", parseLimit)
	}
	return data, nil
}
