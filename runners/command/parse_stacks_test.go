package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
)

// The files under testdata/stacks are real output: cargo 1.95 and clippy
// 0.1.95 (rustup) on one-file crates, PHP_CodeSniffer 3.7.1 and PHPUnit
// 9.6.7 (Debian 12) on a two-file project, with the temp directory each ran
// in rewritten to /work/proj.
func stackSample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "stacks", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseCargoCheck(t *testing.T) {
	t.Parallel()
	diags, tests, err := ParseCargo(stackSample(t, "cargo_check_fail.jsonl"), "/work/proj")
	if err != nil {
		t.Fatal(err)
	}
	want := facts.Diagnostic{File: "src/lib.rs", Line: 2, Column: 18, EndLine: 2, EndColumn: 22, Code: "E0308",
		Severity: "error", Message: "mismatched types: expected `i32`, found `&str`"}
	if len(diags) != 1 || diags[0] != want || tests != nil {
		t.Fatalf("diagnostics %s, tests %s", dump(diags), dump(tests))
	}
}

func TestParseCargoClippy(t *testing.T) {
	t.Parallel()
	diags, _, err := ParseCargo(stackSample(t, "clippy_warn.jsonl"), "/work/proj")
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != 1 || diags[0].Code != "clippy::bool_comparison" || diags[0].Severity != "warning" ||
		diags[0].File != "src/lib.rs" || diags[0].Line != 2 {
		t.Fatalf("diagnostics %s", dump(diags))
	}
}

func TestParseCargoTest(t *testing.T) {
	t.Parallel()
	diags, rep, err := ParseCargo(stackSample(t, "cargo_test_fail.txt"), "/work/proj")
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != 0 || rep == nil {
		t.Fatalf("diagnostics %s, tests %s", dump(diags), dump(rep))
	}
	if rep.Tests != 3 || rep.Passed != 1 || rep.Failures != 2 {
		t.Fatalf("totals %s", dump(rep))
	}
	byName := map[string]facts.TestCase{}
	for _, c := range rep.Cases {
		byName[c.Name] = c
	}
	if c := byName["tests::adds"]; c.Outcome != "failed" || c.FailFile != "src/lib.rs" || c.FailLine != 9 || c.Message != "assertion `left == right` failed" {
		t.Fatalf("tests::adds %s", dump(c))
	}
	if c := byName["integ"]; c.FailFile != "tests/it.rs" || c.FailLine != 3 || c.Message != "one and one" {
		t.Fatalf("integ %s", dump(c))
	}
}

// Rust before 1.73 put the panic's message on the thread line; 1.63 is
// Debian 12's. Ignored tests are skipped, with their reason.
func TestParseCargoTestOldPanic(t *testing.T) {
	t.Parallel()
	out := "running 3 tests\ntest t::a ... FAILED\ntest t::b ... ignored, slow\ntest src/lib.rs - add (line 3) ... ok\n\n" +
		"---- t::a stdout ----\nthread 't::a' panicked at 'assertion failed: false', src/lib.rs:7:5\n\n" +
		"test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out\n" +
		`{"reason":"build-finished","success":true}` + "\n"
	_, rep, err := ParseCargo([]byte(out), "/p")
	if err != nil || rep == nil {
		t.Fatalf("%v %s", err, dump(rep))
	}
	if rep.Tests != 3 || rep.Failures != 1 || rep.Skipped != 1 || rep.Passed != 1 ||
		rep.Cases[0].FailLine != 7 || rep.Cases[0].Message != "assertion failed: false" || rep.Cases[1].Message != "slow" {
		t.Fatalf("report %s", dump(rep))
	}
}

// Output cargo did not finish, or that is not cargo's, is no verdict.
func TestParseCargoRefusesUnfinished(t *testing.T) {
	t.Parallel()
	for name, out := range map[string]string{
		"empty":       "",
		"text only":   "error: could not find `Cargo.toml`\n",
		"unfinished":  `{"reason":"compiler-artifact"}` + "\n",
		"broken JSON": `{"reason":"compiler-message","message":` + "\n" + `{"reason":"build-finished","success":true}`,
	} {
		if _, _, err := ParseCargo([]byte(out), "/p"); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

func TestParsePHPCS(t *testing.T) {
	t.Parallel()
	diags, err := ParsePHPCS(stackSample(t, "phpcs.json"), "/work/proj")
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != 6 {
		t.Fatalf("diagnostics %s", dump(diags))
	}
	want := facts.Diagnostic{File: "src/bad.php", Line: 2, Column: 18, Code: "Squiz.Functions.FunctionDeclarationArgumentSpacing.SpacingAfterOpen",
		Severity: "error", Message: "Expected 0 spaces after opening parenthesis; 1 found", Fixable: true}
	if diags[1] != want {
		t.Fatalf("diagnostic %s", dump(diags[1]))
	}
	for _, bad := range []string{"", "[]", `{"totals":{}}`, `{"files":{}} {}`, "PHP Fatal error"} {
		if _, err := ParsePHPCS([]byte(bad), "/p"); err == nil {
			t.Errorf("%q: parsed", bad)
		}
	}
}

// phpstanDocumented follows the JSON formatter of PHPStan
// (https://phpstan.org/user-guide/output-format, "json"; the keys as
// phpstan-src's src/Command/ErrorFormatter/JsonErrorFormatter.php writes
// them: totals.errors and totals.file_errors, files keyed by path with
// errors and messages of message, line, ignorable and, in PHPStan 1.11 and
// later, identifier and tip; errors that belong to no file as strings).
// PHPStan is not packaged for Debian, so no real run could be recorded.
const phpstanDocumented = `{"totals":{"errors":1,"file_errors":2},` +
	`"files":{"/work/proj/src/Calc.php":{"errors":2,"messages":[` +
	`{"message":"Method App\\Calc::add() has no return type specified.","line":7,"ignorable":true,"identifier":"missingType.return"},` +
	`{"message":"Binary operation \"-\" between string and int results in an error.","line":9,"ignorable":true}]}},` +
	`"errors":["Ignored error pattern #^Foo$# was not matched in reported errors."]}`

func TestParsePHPStan(t *testing.T) {
	t.Parallel()
	diags, err := ParsePHPStan([]byte(phpstanDocumented), "/work/proj")
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != 3 || diags[0].File != "" || !strings.HasPrefix(diags[0].Message, "Ignored error pattern") ||
		diags[1].File != "src/Calc.php" || diags[1].Line != 7 || diags[1].Code != "missingType.return" ||
		diags[2].Line != 9 || diags[2].Code != "" || diags[2].Severity != "error" {
		t.Fatalf("diagnostics %s", dump(diags))
	}
	for _, bad := range []string{"", `{"files":{}}`, "Note: Using configuration file", `{"totals":{"errors":0}}x`} {
		if _, err := ParsePHPStan([]byte(bad), "/p"); err == nil {
			t.Errorf("%q: parsed", bad)
		}
	}
}

func TestParsePHPUnit(t *testing.T) {
	t.Parallel()
	rep, err := ParsePHPUnit(stackSample(t, "phpunit.xml"), "/work/proj")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Tests != 3 || rep.Failures != 1 || rep.Errors != 1 || rep.Passed != 1 {
		t.Fatalf("totals %s", dump(rep))
	}
	f, e := rep.Cases[0], rep.Cases[2]
	if f.Outcome != "failed" || f.File != "tests/CalcTest.php" || f.Line != 9 || f.Message != "Failed asserting that 0 is identical to 4." ||
		f.FailFile != "tests/CalcTest.php" || f.FailLine != 11 {
		t.Fatalf("failure %s", dump(f))
	}
	if e.Outcome != "error" || e.Message != "RuntimeException: boom" || e.FailLine != 21 {
		t.Fatalf("error %s", dump(e))
	}
	if _, err := ParsePHPUnit([]byte("<html/>"), "/p"); err == nil {
		t.Fatal("an HTML page parsed as a report")
	}
}

// javac.txt is javac 17's stderr (Debian 12's default-jdk-headless) for
// two files with three errors.
func TestParseJavac(t *testing.T) {
	t.Parallel()
	diags := ParseJavac(stackSample(t, "javac.txt"), "/work/proj")
	if len(diags) != 3 {
		t.Fatalf("diagnostics %s", dump(diags))
	}
	want := facts.Diagnostic{File: "src/main/java/ex/App.java", Line: 5, Column: 22, Severity: "error",
		Message: "incompatible types: int cannot be converted to String"}
	if diags[0] != want {
		t.Fatalf("first %s", dump(diags[0]))
	}
	if d := diags[2]; d.File != "src/main/java/ex2/W.java" || d.Column != 38 ||
		d.Message != "cannot find symbol; symbol: variable undefinedThing; location: class W" {
		t.Fatalf("third %s", dump(d))
	}
	if d := ParseJavac([]byte("error: file not found: nope.java\nUsage: javac <options> <source files>\n"), "/p"); len(d) != 0 {
		t.Fatalf("usage error parsed as a finding: %s", dump(d))
	}
}

// ansible_lint.json is ansible-lint 6.13.1's -f json (Debian 12) on a
// playbook with an unnamed play, a shell task and a free-form apt task;
// terraform_validate.json is Terraform 1.11.4's validate -json on a module
// that references an undeclared variable.
func TestParseAnsibleLintAndTerraform(t *testing.T) {
	t.Parallel()
	diags, err := ParseAnsibleLint(stackSample(t, "ansible_lint.json"), "/work/proj")
	if err != nil {
		t.Fatal(err)
	}
	want := facts.Diagnostic{File: "site.yml", Line: 3, Code: "command-instead-of-shell", Severity: "error",
		Message: "Use shell only when shell functionality is required.", URL: "https://ansible-lint.readthedocs.io/rules/command-instead-of-shell/"}
	if len(diags) != 9 || diags[1] != want {
		t.Fatalf("ansible-lint %s", dump(diags))
	}
	pos := `[{"check_name":"yaml[truthy]","level":"warning","description":"Truthy value","location":{"path":"/work/proj/roles/x/tasks/main.yml","positions":{"begin":{"line":4,"column":7}}}},` +
		`{"check_name":"x","location":{"path":"a.yml","lines":{"begin":{"line":2,"column":3}}}}]`
	diags, err = ParseAnsibleLint([]byte(pos), "/work/proj")
	if err != nil || diags[0].File != "roles/x/tasks/main.yml" || diags[0].Line != 4 || diags[0].Column != 7 || diags[1].Line != 2 || diags[1].Column != 3 {
		t.Fatalf("positions: %v %s", err, dump(diags))
	}
	diags, err = ParseTerraformValidate(stackSample(t, "terraform_validate.json"), "/work/proj")
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) != 1 || diags[0].File != "main.tf" || diags[0].Line != 6 || diags[0].Column != 20 || diags[0].Severity != "error" ||
		!strings.HasPrefix(diags[0].Message, "Reference to undeclared input variable: An input variable with the name \"nme\"") {
		t.Fatalf("terraform %s", dump(diags))
	}
	for name, bad := range map[string]func([]byte, string) ([]facts.Diagnostic, error){
		"ansible-lint": ParseAnsibleLint, "terraform": ParseTerraformValidate, "hadolint": ParseHadolint, "ktlint": ParseKtlint,
	} {
		for _, out := range []string{"", "Traceback (most recent call last):", `{"diagnostics": []}`, `[{"location": {}}]`, "[] []"} {
			if _, err := bad([]byte(out), "/p"); err == nil && !(out == `[{"location": {}}]` && name != "ansible-lint") {
				t.Errorf("%s parsed %q", name, out)
			}
		}
	}
}

// hadolintDocumented follows hadolint's JSON formatter
// (https://github.com/hadolint/hadolint, src/Hadolint/Formatter/Json.hs:
// file, line, column — always 1 for a rule — level, code, message; a parse
// error is DL1000 at level error); ktlintDocumented its JSON reporter
// (https://github.com/pinterest/ktlint, ktlint-cli-reporter-json, as its
// JsonReporterTest expects it). Neither tool is packaged for Debian, so no
// real run could be recorded.
const (
	hadolintDocumented = `[{"file":"/work/proj/Dockerfile","line":1,"column":1,"level":"warning","code":"DL3006","message":"Always tag the version of an image explicitly"},` +
		`{"file":"Dockerfile","line":3,"column":1,"level":"info","code":"DL3059","message":"Multiple consecutive RUN instructions. Consider consolidation."}]`
	ktlintDocumented = `[
    {
        "file": "/work/proj/src/main/kotlin/Two.kt",
        "errors": [
            {
                "line": 1,
                "column": 10,
                "message": "Unnecessary semicolon",
                "rule": "standard:no-semi"
            },
            {
                "line": 2,
                "column": 20,
                "message": "Missing spacing after \":\"",
                "rule": "standard:colon-spacing"
            }
        ]
    }
]
`
)

func TestParseHadolintAndKtlint(t *testing.T) {
	t.Parallel()
	diags, err := ParseHadolint([]byte(hadolintDocumented), "/work/proj")
	if err != nil {
		t.Fatal(err)
	}
	want := facts.Diagnostic{File: "Dockerfile", Line: 1, Column: 1, Severity: "warning", Code: "DL3006", Message: "Always tag the version of an image explicitly"}
	if len(diags) != 2 || diags[0] != want || diags[1].Severity != "info" {
		t.Fatalf("hadolint %s", dump(diags))
	}
	diags, err = ParseKtlint([]byte(ktlintDocumented), "/work/proj")
	if err != nil {
		t.Fatal(err)
	}
	want = facts.Diagnostic{File: "src/main/kotlin/Two.kt", Line: 2, Column: 20, Severity: "error", Code: "standard:colon-spacing", Message: `Missing spacing after ":"`}
	if len(diags) != 2 || diags[1] != want {
		t.Fatalf("ktlint %s", dump(diags))
	}
	if diags, err := ParseKtlint([]byte("[]\n"), "/p"); err != nil || len(diags) != 0 {
		t.Fatalf("a clean ktlint run: %v %s", err, dump(diags))
	}
}

// With --all-targets cargo builds a library twice (as itself and for its
// unit tests) and reports its error once for each: one finding.
func TestParseCargoOnceAcrossTargets(t *testing.T) {
	t.Parallel()
	line := strings.SplitN(string(stackSample(t, "cargo_check_fail.jsonl")), "\n", 2)[0]
	out := line + "\n" + line + "\n" + `{"reason":"build-finished","success":false}` + "\n"
	diags, _, err := ParseCargo([]byte(out), "/work/proj")
	if err != nil || len(diags) != 1 {
		t.Fatalf("%v %s", err, dump(diags))
	}
}
