package command

import (
	"fmt"

	"github.com/tausik/tausik/facts"
)

// The parsers of the Rust, PHP, Java, Kotlin, Ansible, Terraform and
// Dockerfile stack gates' tools (the shell and yaml stacks' are in
// parse_shell.go).
const (
	ParserCargo    Parser = "cargo"        // `cargo check|clippy|test --message-format=json` on stdout
	ParserPHPCS    Parser = "phpcs"        // `phpcs --report=json` on stdout
	ParserPHPStan  Parser = "phpstan"      // `phpstan analyse --error-format=json` on stdout
	ParserPHPUnit  Parser = "phpunit"      // JUnit XML `phpunit --log-junit` writes to {junitxml}
	ParserJavac    Parser = "javac"        // javac's diagnostics on stderr; its classes go to {report}, a throwaway directory
	ParserAnsible  Parser = "ansible-lint" // `ansible-lint -f json` (Code Climate) on stdout
	ParserTfValid  Parser = "terraform"    // `terraform validate -json` on stdout
	ParserHadolint Parser = "hadolint"     // `hadolint --format json` on stdout
	ParserKtlint   Parser = "ktlint"       // `ktlint --reporter=json` on stdout
)

// stackParsers are the parsers parseStack knows.
var stackParsers = []Parser{ParserCargo, ParserPHPCS, ParserPHPStan, ParserPHPUnit, ParserJavac, ParserAnsible, ParserTfValid, ParserHadolint, ParserKtlint, ParserShellcheck, ParserYamllint}

// stackReport reports whether the tool of a stack parser is given a
// report path in a temp directory: PHPUnit's JUnit report, javac's output
// directory (its classes must not land in the project).
func stackReport(p Parser) bool { return p == ParserPHPUnit || p == ParserJavac }

// parseStack reads the output of a stack gate's tool, paths relative to
// root (the tool's working directory); handled is false for a parser it
// does not know.
func parseStack(p Parser, out outcome, root, report string) (handled bool, diags []facts.Diagnostic, tests *facts.TestReport, err error) {
	switch p {
	case ParserPHPUnit:
		data, err := readReport(report)
		if err != nil {
			return true, nil, nil, err
		}
		tests, err = ParsePHPUnit(data, root)
		return true, nil, tests, err
	case ParserCargo, ParserPHPCS, ParserPHPStan, ParserJavac, ParserAnsible, ParserTfValid, ParserHadolint, ParserKtlint,
		ParserShellcheck, ParserYamllint:
	default:
		return false, nil, nil, nil
	}
	if !out.stdout.complete() || !out.stderr.complete() {
		return true, nil, nil, fmt.Errorf("output over %d bytes, too large to parse", parseLimit)
	}
	switch p {
	case ParserCargo:
		diags, tests, err = ParseCargo(out.stdout.head, root)
	case ParserPHPCS:
		diags, err = ParsePHPCS(out.stdout.head, root)
	case ParserPHPStan:
		diags, err = ParsePHPStan(out.stdout.head, root)
	case ParserJavac:
		diags = ParseJavac(out.stderr.head, root)
	case ParserAnsible:
		diags, err = ParseAnsibleLint(out.stdout.head, root)
	case ParserTfValid:
		diags, err = ParseTerraformValidate(out.stdout.head, root)
	case ParserHadolint:
		diags, err = ParseHadolint(out.stdout.head, root)
	case ParserKtlint:
		diags, err = ParseKtlint(out.stdout.head, root)
	case ParserShellcheck:
		diags, err = ParseShellcheck(out.stdout.head, root)
	case ParserYamllint:
		diags, err = ParseYamllint(out.stdout.head, root)
	}
	return true, diags, tests, err
}
