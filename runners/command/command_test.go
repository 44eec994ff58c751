package command

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
)

func TestMetacharactersAreRefusedNotEscaped(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{
		"a;b", "a|b", "a&&b", "$HOME", "`id`", "$(id)", "out>file", "<in", "(sub)", "x)", "two\nlines", "cr\rx",
	} {
		_, err := New(Spec{Name: "lint", Argv: []string{"ruff", "check", arg}})
		if !errors.Is(err, ErrMetachar) {
			t.Errorf("%q: err %v, want ErrMetachar", arg, err)
			continue
		}
		if !strings.Contains(err.Error(), `argument 2 "`) || !strings.Contains(err.Error(), `"lint"`) {
			t.Errorf("%q: message %q must name the gate and the argument", arg, err)
		}
	}
	_, err := New(Spec{Name: "lint", Argv: []string{"sh", "-c", "ruff check . | tee out"}}, WithAllowlist("sh"))
	if !errors.Is(err, ErrMetachar) {
		t.Fatalf("shell command line: err %v", err)
	}
}

// An allowed interpreter does not allow every script: the built-in
// allowance is `python3 -m pytest`, not python3; a prefix matches whole
// arguments; and arguments after an allowed prefix may not name another
// program for the tool to run.
func TestAllowedByArgvPrefix(t *testing.T) {
	t.Parallel()
	for _, argv := range [][]string{
		{"python3", "tools/evil.py"}, {"python3", "-m", "pytest_evil"}, {"python3", "-c", "import os"},
		{"go", "run", "./tools/evil"}, {"go", "vet", "-vettool=./evil"}, {"go", "test", "-exec", "./evil", "./..."},
		{"go", "test", "-toolexec=./evil"}, {"mypy", "--python-executable=./evil", "x.py"}, {"ruff", "format"},
	} {
		if _, err := New(Spec{Name: "x", Argv: argv}); !errors.Is(err, ErrNotAllowed) {
			t.Errorf("%q: err %v, want ErrNotAllowed", argv, err)
		}
	}
	for _, argv := range [][]string{{"python3", "-m", "pytest", "-q"}, {"go", "vet", "./..."}, {"ruff", "check", FilesArg}} {
		if _, err := New(Spec{Name: "x", Argv: argv}); err != nil {
			t.Errorf("%q: %v", argv, err)
		}
	}
	lint := []string{"python3", "tools/lint.py"}
	if _, err := New(Spec{Name: "x", Argv: []string{"python3", "tools/lint.py", FilesArg}}, WithAllowed(lint)); err != nil {
		t.Errorf("an allowed prefix refused: %v", err)
	}
	if _, err := New(Spec{Name: "x", Argv: []string{"python3", "tools/lint.py.evil"}}, WithAllowed(lint)); !errors.Is(err, ErrNotAllowed) {
		t.Errorf("a prefix must match whole arguments: err %v", err)
	}
}

func TestAllowlist(t *testing.T) {
	t.Parallel()
	_, err := New(Spec{Name: "eslint", Argv: []string{"npx", "eslint", FilesArg}})
	if !errors.Is(err, ErrNotAllowed) || !strings.Contains(err.Error(), `"npx eslint {files}" starts with no allowed command`) {
		t.Fatalf("err %v", err)
	}
	// An allowed name from another directory is not the allowed tool.
	_, err = New(Spec{Name: "py", Argv: []string{"/tmp/evil/python3", "x.py"}})
	if !errors.Is(err, ErrNotAllowed) {
		t.Fatalf("path to an allowed name: err %v", err)
	}
	if _, err := New(Spec{Name: "py", Argv: []string{"/usr/bin/python3", "-V"}}, WithAllowlist("/usr/bin/python3")); err != nil {
		t.Fatalf("exact path on the list: %v", err)
	}
	if _, err := New(Spec{Name: "eslint", Argv: []string{"npx", "eslint"}}, WithAllowed(append(DefaultAllowed(), []string{"npx"})...)); err != nil {
		t.Fatalf("configured allow-list: %v", err)
	}
	_, err = New(Spec{Name: "lint", Argv: []string{"ruff"}, Env: []string{"LD_PRELOAD=/tmp/x.so"}})
	if !errors.Is(err, ErrNotAllowed) {
		t.Fatalf("LD_PRELOAD: err %v", err)
	}
	for _, s := range Defaults() {
		if _, err := New(s); err != nil {
			t.Errorf("built-in %s refused: %v", s.Name, err)
		}
	}
}

func TestSpecValidation(t *testing.T) {
	t.Parallel()
	bad := []Spec{
		{Name: "", Argv: []string{"ruff"}},
		{Name: "Ruff", Argv: []string{"ruff"}},
		{Name: "git", Argv: []string{"ruff"}},
		{Name: "lint"},
		{Name: "lint", Argv: []string{"ruff", "--files={files}"}},
		{Name: "lint", Argv: []string{"ruff", "{file}"}},
		{Name: "lint", Argv: []string{FilesArg}},
		{Name: "lint", Argv: []string{"ruff", "check"}, Env: []string{"NOEQUALS"}},
		{Name: "lint", Argv: []string{"ruff", "check"}, Extensions: []string{"."}},
		{Name: "lint", Argv: []string{"ruff", "check"}, Parser: "xml"},
		{Name: "lint", Argv: []string{"ruff", "check"}, Timeout: -time.Second},
	}
	for _, s := range bad {
		if _, err := New(s); !errors.Is(err, ErrBadSpec) {
			t.Errorf("%+v: err %v, want ErrBadSpec", s, err)
		}
	}
}

func TestPytestParserAddsReportArguments(t *testing.T) {
	t.Parallel()
	r, err := New(Spec{Name: "tests", Argv: []string{"pytest", "tests/"}, Parser: ParserPytest})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"pytest", "tests/", "-o", "junit_family=xunit1", "--junitxml=" + JUnitArg}
	if got := r.Spec().Argv; !slices.Equal(got, want) || r.Spec().Timeout != DefaultTimeout {
		t.Fatalf("argv %q timeout %s", got, r.Spec().Timeout)
	}
}

func TestMissingToolIsNotFound(t *testing.T) {
	t.Parallel()
	root := project(t, map[string]string{"a.py": "x = 1\n"})
	s := Spec{Name: "ghost", Argv: []string{"tausik-no-such-tool", FilesArg}, Extensions: []string{"py"}}
	ns, c := run(t, s, root, nil, WithAllowlist("tausik-no-such-tool"))
	if ns.Status != facts.StatusError || ns.Reason != ReasonNotFound || c.Ran || c.ExitCode != -1 {
		t.Fatalf("status %s %q ran %v exit %d", ns.Status, ns.Reason, c.Ran, c.ExitCode)
	}
	if !slices.Equal(c.Files, []string{"a.py"}) || !strings.Contains(c.Detail, "not found") {
		t.Fatalf("files %v detail %q", c.Files, c.Detail)
	}
	ns, _ = run(t, Spec{Name: "ghost", Argv: []string{"/nonexistent/bin/tool"}}, root, nil, WithAllowlist("/nonexistent/bin/tool"))
	if ns.Reason != ReasonNotFound {
		t.Fatalf("missing absolute path: reason %q", ns.Reason)
	}
}

func TestTimeoutKillsTheTool(t *testing.T) {
	t.Parallel()
	root := project(t, nil)
	start := time.Now()
	s := Spec{Name: "slow", Argv: []string{"/usr/bin/python3", "-c", "import time\ntime.sleep(10)"}, Timeout: 200 * time.Millisecond}
	if _, err := New(s, WithAllowlist("/usr/bin/python3")); !errors.Is(err, ErrMetachar) {
		t.Fatalf("a newline is a metacharacter too: %v", err)
	}
	s.Argv = []string{"sleep", "10"}
	ns, c := run(t, s, root, nil, WithAllowlist("sleep"))
	if ns.Status != facts.StatusError || ns.Reason != ReasonTimeout || c.Ran {
		t.Fatalf("status %s %q ran %v", ns.Status, ns.Reason, c.Ran)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Fatalf("took %s; the timeout did not stop the tool", el)
	}
}

func TestFilesSubstitution(t *testing.T) {
	t.Parallel()
	root := project(t, map[string]string{
		"src/with space.py": "", "-dash.py": "", "src/UPPER.PY": "", "src/skip.txt": "", "top.pyi": "",
	})
	s := Spec{Name: "echo", Argv: []string{"printf", `[%s]\n`, "--", FilesArg, "end"}, Extensions: []string{".py", "pyi"}}
	ns, c := run(t, s, root, nil, WithAllowlist("printf"))
	if ns.Status != facts.StatusOK || c.ExitCode != 0 {
		t.Fatalf("status %s %q exit %d", ns.Status, ns.Reason, c.ExitCode)
	}
	if want := []string{"-dash.py", "src/UPPER.PY", "src/with space.py", "top.pyi"}; !slices.Equal(c.Files, want) {
		t.Fatalf("files %q, want %q", c.Files, want)
	}
	if want := "[--]\n[./-dash.py]\n[src/UPPER.PY]\n[src/with space.py]\n[top.pyi]\n[end]\n"; c.Stdout != want {
		t.Fatalf("the tool saw:\n%s\nwant:\n%s", c.Stdout, want)
	}
}

func TestEnvAndWorkingDirectory(t *testing.T) {
	t.Parallel()
	root := project(t, map[string]string{"marker": ""})
	ns, c := run(t, Spec{Name: "env", Argv: []string{"printenv", "TAUSIK_TEST_VALUE"}, Env: []string{"TAUSIK_TEST_VALUE=a b;c"}},
		root, nil, WithAllowlist("printenv"))
	if ns.Status != facts.StatusOK || c.Stdout != "a b;c\n" {
		t.Fatalf("status %s stdout %q", ns.Status, c.Stdout)
	}
	_, c = run(t, Spec{Name: "pwd", Argv: []string{"pwd"}}, root, nil, WithAllowlist("pwd"))
	if strings.TrimSpace(c.Stdout) != root {
		t.Fatalf("ran in %q, want the project root %q", c.Stdout, root)
	}
}

func TestOutputIsCappedKeepingHeadAndTail(t *testing.T) {
	t.Parallel()
	root := project(t, nil)
	ns, c := run(t, Spec{Name: "loud", Argv: []string{"seq", "1", "100000"}}, root, nil, WithAllowlist("seq"), WithOutputCap(1000))
	if ns.Status != facts.StatusOK || !c.StdoutTrunc || c.StdoutBytes != 588895 {
		t.Fatalf("status %s truncated %v bytes %d", ns.Status, c.StdoutTrunc, c.StdoutBytes)
	}
	if !strings.HasPrefix(c.Stdout, "1\n2\n3\n") || !strings.HasSuffix(c.Stdout, "99999\n100000\n") || len(c.Stdout) > 1100 {
		t.Fatalf("stdout (%d bytes) %q…%q", len(c.Stdout), c.Stdout[:20], c.Stdout[len(c.Stdout)-20:])
	}
}

func TestExitCodeAndStderrAreRecorded(t *testing.T) {
	t.Parallel()
	root := project(t, nil)
	ns, c := run(t, Spec{Name: "ls", Argv: []string{"ls", "no-such-entry"}}, root, nil, WithAllowlist("ls"))
	if ns.Status != facts.StatusOK || !c.Ran || c.ExitCode != 2 || !strings.Contains(c.Stderr, "no-such-entry") {
		t.Fatalf("status %s ran %v exit %d stderr %q", ns.Status, c.Ran, c.ExitCode, c.Stderr)
	}
}
