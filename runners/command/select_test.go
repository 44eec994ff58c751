package command

import (
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
)

func TestExcludePatterns(t *testing.T) {
	t.Parallel()
	cases := []struct {
		pattern string
		in, out []string
	}{
		{"**/testdata/", []string{"testdata/a.py", "pkg/testdata/x/b.py"}, []string{"testdata.py", "mytestdata/a.py", "a/testdata"}},
		{"testdata/", []string{"testdata/a.py"}, []string{"pkg/testdata/x/b.py", "testdata.py"}}, // a "/" anchors at the root
		{"**/fixtures/*/tree/", []string{"policies/ruff/fixtures/bad/tree/a.py", "tausik/policies/g/fixtures/c/tree/x/y.py", "fixtures/c/tree/a.py"},
			[]string{"fixtures/c/a.py", "policies/fixtures/tree/a.py", "fixtures/a/b/tree/c.py"}},
		{"gen/*.py", []string{"gen/a.py"}, []string{"gen/sub/a.py", "x/gen/a.py"}},
		{"gen/**", []string{"gen/a.py", "gen/sub/a.py"}, []string{"x/gen/a.py"}},
		{"*_pb2.py", []string{"api_pb2.py", "deep/x/api_pb2.py"}, []string{"api_pb2.pyi"}},
		{"/build/", []string{"build/a.py"}, []string{"x/build/a.py"}},
	}
	for _, c := range cases {
		es, err := compileExclude([]string{c.pattern})
		if err != nil {
			t.Fatalf("%q: %v", c.pattern, err)
		}
		for _, p := range c.in {
			if !excluded(es, p) {
				t.Errorf("%q does not exclude %s", c.pattern, p)
			}
		}
		for _, p := range c.out {
			if excluded(es, p) {
				t.Errorf("%q excludes %s", c.pattern, p)
			}
		}
	}
	for _, bad := range []string{"", "/", "a/[b", `a\b`, "//a", "a//b", "a//"} {
		if _, err := compileExclude([]string{bad}); !errors.Is(err, ErrBadSpec) {
			t.Errorf("%q: err %v, want ErrBadSpec", bad, err)
		}
	}
}

func TestExcludedFilesAreNotPassed(t *testing.T) {
	t.Parallel()
	root := project(t, map[string]string{"src/a.py": "", "testdata/b.py": "", "gen/c.py": ""})
	s := Spec{Name: "echo", Argv: []string{"printf", `[%s]\n`, FilesArg}, Extensions: []string{".py"}, Exclude: []string{"testdata/", "gen/"}}
	ns, c := run(t, s, root, nil, WithAllowlist("printf"))
	if ns.Status != facts.StatusOK || !slices.Equal(c.Files, []string{"src/a.py"}) || c.Stdout != "[src/a.py]\n" {
		t.Fatalf("status %s files %q stdout %q", ns.Status, c.Files, c.Stdout)
	}
	ns, c = run(t, s, root, []string{"testdata/b.py", "gen/c.py"}, WithAllowlist("printf"))
	if ns.Status != facts.StatusUnavailable || ns.Reason != ReasonNoFiles || c.Ran || !strings.Contains(c.Detail, "excluded") {
		t.Fatalf("only excluded files: status %s %q ran %v detail %q", ns.Status, ns.Reason, c.Ran, c.Detail)
	}
}

// A command that does not take {files} but names extensions judges a
// language: it runs only when a file of that language is in scope.
func TestExtensionsGateACommandWithoutFiles(t *testing.T) {
	t.Parallel()
	root := project(t, map[string]string{"README.md": "x", "main.go": "package main\n"})
	s := Spec{Name: "marker", Argv: []string{"printf", "ran"}, Extensions: []string{".go"}}
	ns, c := run(t, s, root, []string{"README.md"}, WithAllowlist("printf"))
	if ns.Status != facts.StatusUnavailable || ns.Reason != ReasonNoFiles || c.Ran {
		t.Fatalf("no Go file in scope: status %s %q ran %v", ns.Status, ns.Reason, c.Ran)
	}
	ns, c = run(t, s, root, []string{"README.md", "main.go"}, WithAllowlist("printf"))
	if ns.Status != facts.StatusOK || c.Stdout != "ran" || len(c.Files) != 0 || c.UsesFiles {
		t.Fatalf("a Go file in scope: status %s stdout %q files %q", ns.Status, c.Stdout, c.Files)
	}
}

func TestBuiltinNamesAreGateNames(t *testing.T) {
	t.Parallel()
	for _, s := range Defaults() {
		if strings.Contains(s.Name, "-") {
			t.Errorf("%s: a gate name has no '-' (gate names match ^[a-z][a-z0-9_]*$)", s.Name)
		}
		if _, err := New(s); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
	}
}

func TestBanditReportsIssuesAndUnscannableFiles(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bandit"); err != nil {
		t.Fatalf("bandit is not installed; run `apt-get install -y bandit`: %v", err)
	}
	root := project(t, map[string]string{
		"app/run cmd.py": "import subprocess\n\n\ndef run(cmd):\n    return subprocess.call(cmd, shell=True)\n",
		"clean.py":       "x = 1\n",
		"broken.py":      "def f(:\n",
		"testdata/t.py":  "import pickle\n",
	})
	ns, c := run(t, spec("bandit"), root, nil)
	if ns.Status != facts.StatusOK || !c.Ran || c.ExitCode != 1 {
		t.Fatalf("status %s %q exit %d\n%s", ns.Status, ns.Reason, c.ExitCode, dump(c))
	}
	if want := []string{"app/run cmd.py", "broken.py", "clean.py"}; !slices.Equal(c.Files, want) {
		t.Fatalf("files %q, want %q (testdata/ excluded by default)", c.Files, want)
	}
	var got []string
	for _, d := range c.Diagnostics {
		got = append(got, fmt.Sprintf("%s:%d:%s:%s", d.File, d.Line, d.Code, d.Severity))
	}
	want := []string{"broken.py:0::error", "app/run cmd.py:1:B404:low", "app/run cmd.py:5:B602:high"}
	if !slices.Equal(got, want) {
		t.Fatalf("diagnostics %q, want %q\n%s", got, want, dump(c.Diagnostics))
	}
	if !strings.Contains(c.Diagnostics[2].Message, "shell=True") || !strings.HasPrefix(c.Diagnostics[2].URL, "https://") {
		t.Fatalf("diagnostic %+v", c.Diagnostics[2])
	}
}

func TestParseBanditRefusesOutputItCannotRead(t *testing.T) {
	t.Parallel()
	for _, out := range []string{"", "[]", `{"errors": []}`, `{"results": [{"line_number": 1}]}`, `{"results": []} {}`, "Run started"} {
		if _, err := ParseBandit([]byte(out), "/r"); err == nil {
			t.Errorf("%q: no error", out)
		}
	}
	d, err := ParseBandit([]byte(`{"errors": [], "results": []}`), "/r")
	if err != nil || d == nil || len(d) != 0 {
		t.Fatalf("an empty report: %v %v", d, err)
	}
}
