package command

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
)

// These tests run the real tools: ruff (Astral's WebAssembly build behind
// testdata/ruff), pytest and mypy from Debian, go vet.

func TestRuffReportsUnusedImportWithFileAndLine(t *testing.T) {
	t.Parallel()
	needRuff(t)
	root := project(t, map[string]string{
		"pkg/bad file.py": "\"\"\"Doc.\"\"\"\n\nimport os\n\n\ndef f():\n    return 1\n",
		"clean.py":        "def g():\n    return 2\n",
		"notes.txt":       "import os\n",
		"café/ünï.py":     "import sys\n",
	})
	ns, c := run(t, spec("ruff"), root, nil)
	if ns.Status != facts.StatusOK || !c.Ran || c.ExitCode != 1 {
		t.Fatalf("status %s %q ran %v exit %d\n%s", ns.Status, ns.Reason, c.Ran, c.ExitCode, dump(c))
	}
	if want := []string{"café/ünï.py", "clean.py", "pkg/bad file.py"}; !slices.Equal(c.Files, want) {
		t.Fatalf("files %q, want %q (notes.txt filtered out)", c.Files, want)
	}
	if !slices.Contains(c.Argv, "pkg/bad file.py") || slices.Contains(c.Argv, "{files}") {
		t.Fatalf("argv %q must hold each file as one argument", c.Argv)
	}
	want := []facts.Diagnostic{
		{File: "café/ünï.py", Line: 1, Column: 8, EndLine: 1, EndColumn: 11, Code: "F401", Message: "`sys` imported but unused", Fixable: true},
		{File: "pkg/bad file.py", Line: 3, Column: 8, EndLine: 3, EndColumn: 10, Code: "F401", Message: "`os` imported but unused", Fixable: true},
	}
	if dump(c.Diagnostics) != dump(want) {
		t.Fatalf("diagnostics:\n%s\nwant:\n%s", dump(c.Diagnostics), dump(want))
	}
}

func TestRuffCleanFile(t *testing.T) {
	t.Parallel()
	needRuff(t)
	root := project(t, map[string]string{"ok.py": "def g():\n    return 2\n", "bad.py": "import os\n"})
	ns, c := run(t, spec("ruff"), root, []string{"ok.py"})
	if ns.Status != facts.StatusOK || c.ExitCode != 0 || len(c.Diagnostics) != 0 || c.Diagnostics == nil {
		t.Fatalf("status %s exit %d diagnostics %s", ns.Status, c.ExitCode, dump(c.Diagnostics))
	}
	if !slices.Equal(c.Files, []string{"ok.py"}) {
		t.Fatalf("files %q: only the requested file is linted", c.Files)
	}
}

func TestRuffSyntaxError(t *testing.T) {
	t.Parallel()
	needRuff(t)
	root := project(t, map[string]string{"broken.py": "x = 1\ndef f(:\n    pass\n"})
	ns, c := run(t, spec("ruff"), root, nil)
	if ns.Status != facts.StatusOK || c.ExitCode != 1 || len(c.Diagnostics) == 0 {
		t.Fatalf("status %s exit %d\n%s", ns.Status, c.ExitCode, dump(c))
	}
	d := c.Diagnostics[0]
	if d.File != "broken.py" || d.Line != 2 || d.Code != "" || !strings.HasPrefix(d.Message, "SyntaxError: ") {
		t.Fatalf("syntax error diagnostic %+v", d)
	}
}

func TestRuffUsageErrorIsParseError(t *testing.T) {
	t.Parallel()
	needRuff(t)
	root := project(t, map[string]string{"a.py": "x = 1\n"})
	s := spec("ruff")
	s.Argv = []string{"ruff", "check", "--output-format", "json", "--select", "NOPE1", FilesArg}
	ns, c := run(t, s, root, nil)
	if ns.Status != facts.StatusError || ns.Reason != ReasonParseError || c.ExitCode != 2 || !strings.Contains(c.Detail, "NOPE1") {
		t.Fatalf("status %s %q exit %d detail %q", ns.Status, ns.Reason, c.ExitCode, c.Detail)
	}
}

func TestNoMatchingFilesIsNotApplicable(t *testing.T) {
	t.Parallel()
	root := project(t, map[string]string{"README.md": "# hi\n", "main.go": "package main\n"})
	ns, c := run(t, spec("ruff"), root, nil)
	if ns.Status != facts.StatusUnavailable || ns.Reason != ReasonNoFiles || c.Ran || len(c.Files) != 0 || c.Files == nil {
		t.Fatalf("status %s %q ran %v files %v", ns.Status, ns.Reason, c.Ran, c.Files)
	}
	// A requested file that was deleted is not handed to the tool either.
	ns, _ = run(t, spec("ruff"), root, []string{"deleted.py"})
	if ns.Reason != ReasonNoFiles {
		t.Fatalf("deleted file: reason %q", ns.Reason)
	}
}

func pytestSpec(t *testing.T) (Spec, []Option) {
	py := python(t)
	s := spec("pytest")
	s.Argv = slices.Clone(s.Argv)
	s.Argv[0] = py
	s.Env = []string{"PYTHONDONTWRITEBYTECODE=1"}
	return s, []Option{WithAllowed(append(DefaultAllowed(), []string{py})...)}
}

func TestPytestPassingSuite(t *testing.T) {
	t.Parallel()
	s, opts := pytestSpec(t)
	ns, c := run(t, s, copyTree(t, "pytest/passing"), nil, opts...)
	if ns.Status != facts.StatusOK || c.ExitCode != 0 || c.Tests == nil {
		t.Fatalf("status %s %q exit %d\n%s", ns.Status, ns.Reason, c.ExitCode, dump(c))
	}
	if !slices.Contains(c.Argv, "--junitxml="+JUnitArg) {
		t.Fatalf("argv %q: the report's temp path must not leak into the facts", c.Argv)
	}
	r := c.Tests
	if r.Tests != 3 || r.Passed != 2 || r.Skipped != 1 || r.Failures != 0 || r.Errors != 0 {
		t.Fatalf("totals %+v", r)
	}
	want := facts.TestCase{Classname: "tests.test_calc.TestAdd", Name: "test_negative", File: "tests/test_calc.py", Line: 11, Outcome: "passed"}
	got := r.Cases[1]
	got.DurationMS = 0
	if got != want {
		t.Fatalf("case %+v, want %+v", got, want)
	}
	if sk := r.Cases[2]; sk.Outcome != "skipped" || sk.Message != "shows a skipped case" {
		t.Fatalf("skipped case %+v", sk)
	}
}

func TestPytestFailingSuiteLocatesTheAssertion(t *testing.T) {
	t.Parallel()
	s, opts := pytestSpec(t)
	ns, c := run(t, s, copyTree(t, "pytest/failing"), nil, opts...)
	if ns.Status != facts.StatusOK || c.ExitCode != 1 {
		t.Fatalf("status %s %q exit %d\n%s", ns.Status, ns.Reason, c.ExitCode, dump(c))
	}
	if c.Tests.Tests != 2 || c.Tests.Failures != 1 || c.Tests.Passed != 1 {
		t.Fatalf("totals %+v", c.Tests)
	}
	f := c.Tests.Cases[1]
	if f.Outcome != "failed" || f.Name != "test_double" || f.File != "tests/test_broken_math.py" || f.Line != 9 ||
		f.FailFile != "tests/test_broken_math.py" || f.FailLine != 10 || !strings.HasPrefix(f.Message, "assert 6 == 4") {
		t.Fatalf("failed case %+v", f)
	}
	if !strings.Contains(c.Stdout, "1 failed, 1 passed") {
		t.Fatalf("stdout lacks pytest's summary:\n%s", c.Stdout)
	}
}

func TestPytestNoTestsExitsFive(t *testing.T) {
	t.Parallel()
	s, opts := pytestSpec(t)
	ns, c := run(t, s, copyTree(t, "pytest/empty"), nil, opts...)
	if ns.Status != facts.StatusOK || c.ExitCode != 5 || c.Tests == nil || c.Tests.Tests != 0 || len(c.Tests.Cases) != 0 {
		t.Fatalf("status %s %q exit %d\n%s", ns.Status, ns.Reason, c.ExitCode, dump(c))
	}
}

func TestPytestCollectionError(t *testing.T) {
	t.Parallel()
	s, opts := pytestSpec(t)
	root := copyTree(t, "pytest/collect_error")
	ns, c := run(t, s, root, nil, opts...)
	if ns.Status != facts.StatusOK || c.ExitCode != 2 || c.Tests.Errors != 1 {
		t.Fatalf("status %s %q exit %d\n%s", ns.Status, ns.Reason, c.ExitCode, dump(c))
	}
	e := c.Tests.Cases[0]
	if e.Outcome != "error" || e.File != "tests/test_import_error.py" || e.FailFile != "tests/test_import_error.py" || e.FailLine != 1 {
		t.Fatalf("error case %+v", e)
	}
	// The report lived in a temp dir of its own; nothing was left in the project.
	if _, err := os.Stat(filepath.Join(root, "report.xml")); err == nil {
		t.Fatal("report written into the project")
	}
}

func TestPytestReportMissingIsParseError(t *testing.T) {
	t.Parallel()
	s, opts := pytestSpec(t)
	s.Argv = append(s.Argv, "--no-such-pytest-flag")
	ns, c := run(t, s, copyTree(t, "pytest/passing"), nil, opts...)
	if ns.Status != facts.StatusError || ns.Reason != ReasonParseError || c.ExitCode != 4 || !strings.Contains(c.Detail, "no JUnit report") {
		t.Fatalf("status %s %q exit %d detail %q", ns.Status, ns.Reason, c.ExitCode, c.Detail)
	}
}

func TestMypyDiagnostics(t *testing.T) {
	t.Parallel()
	root := project(t, map[string]string{
		"typed mod.py": "def f(x: int) -> str:\n    return x\n",
		"fine.py":      "def g() -> int:\n    return 1\n",
	})
	ns, c := run(t, spec("mypy"), root, nil)
	if ns.Status == facts.StatusError && ns.Reason == ReasonNotFound {
		t.Fatalf("mypy is not installed; run `apt-get install -y mypy`")
	}
	if ns.Status != facts.StatusOK || c.ExitCode != 1 {
		t.Fatalf("status %s %q exit %d\n%s", ns.Status, ns.Reason, c.ExitCode, dump(c))
	}
	want := []facts.Diagnostic{{File: "typed mod.py", Line: 2, Column: 12, Code: "return-value", Severity: "error",
		Message: `Incompatible return value type (got "int", expected "str")`}}
	if dump(c.Diagnostics) != dump(want) {
		t.Fatalf("diagnostics:\n%s", dump(c.Diagnostics))
	}
}

func TestGoVetDiagnostics(t *testing.T) {
	t.Parallel()
	root := project(t, map[string]string{
		"go.mod":  "module example.test/vet\n\ngo 1.22\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Printf(\"%d\\n\", \"text\")\n}\n",
	})
	ns, c := run(t, spec("go_vet"), root, nil)
	if ns.Status != facts.StatusOK || c.ExitCode == 0 || len(c.Diagnostics) != 1 {
		t.Fatalf("status %s %q exit %d\n%s", ns.Status, ns.Reason, c.ExitCode, dump(c))
	}
	if d := c.Diagnostics[0]; d.File != "main.go" || d.Line != 6 || !strings.Contains(d.Message, "wrong type") {
		t.Fatalf("diagnostic %+v", d)
	}
}
