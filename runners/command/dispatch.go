package command

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/tausik/tausik/facts"
)

// readsReport reports whether the parser reads a report file the tool
// writes ({junitxml} or {report}) rather than its stdout.
func (p Parser) readsReport() bool {
	return p == ParserPytest || p == ParserNodeTest || p == ParserJest || stackReport(p)
}

// parseOutput reads the tool's machine output with parser: diagnostics or
// test results, paths relative to root (the tool's working directory).
func parseOutput(parser Parser, out outcome, root, report string) ([]facts.Diagnostic, *facts.TestReport, error) {
	if ok, d, t, err := parseStack(parser, out, root, report); ok {
		return d, t, err
	}
	switch parser {
	case ParserNone:
		return nil, nil, nil
	case ParserPytest:
		rep, err := readJUnit(report, root)
		return nil, rep, err
	case ParserNodeTest:
		b, err := readReport(report)
		if err != nil {
			return nil, nil, err
		}
		rep, err := ParseNodeTest(b, root)
		return nil, rep, err
	case ParserJest:
		b, err := readReport(report)
		if err != nil {
			return nil, nil, err
		}
		rep, err := ParseJest(b, root)
		return nil, rep, err
	}
	if !out.stdout.complete() {
		return nil, nil, fmt.Errorf("stdout over %d bytes, too large to parse", parseLimit)
	}
	if !out.stderr.complete() {
		return nil, nil, fmt.Errorf("stderr over %d bytes, too large to parse", parseLimit)
	}
	stdout, stderr := out.stdout.head, out.stderr.head
	switch parser {
	case ParserRuff:
		d, err := ParseRuff(stdout, root)
		return d, nil, err
	case ParserMypy:
		return ParseMypy(stdout, root), nil, nil
	case ParserBandit:
		d, err := ParseBandit(stdout, root)
		return d, nil, err
	case ParserLines:
		// go vet writes its findings to stderr, other tools to stdout.
		return append(ParseLines(stdout, root), ParseLines(stderr, root)...), nil, nil
	case ParserTsc:
		return ParseTsc(stdout, root), nil, nil
	case ParserEslint:
		d, err := ParseEslint(stdout, root)
		return d, nil, err
	case ParserGolangci:
		d, err := ParseGolangci(stdout, root)
		return d, nil, err
	case ParserHelm:
		return ParseHelmLint(stdout, root), nil, nil
	case ParserKubeconform:
		d, err := ParseKubeconform(stdout, root)
		return d, nil, err
	}
	return nil, nil, fmt.Errorf("unknown parser %q", parser)
}

// readReport reads the report file a tool wrote, bounded.
func readReport(p string) ([]byte, error) {
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errors.New("the tool wrote no report")
	}
	if err != nil {
		return nil, fmt.Errorf("open report: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, parseLimit+1))
	if err != nil {
		return nil, fmt.Errorf("read report: %w", err)
	}
	if len(b) > parseLimit {
		return nil, fmt.Errorf("report over %d bytes, too large to parse", parseLimit)
	}
	return b, nil
}
