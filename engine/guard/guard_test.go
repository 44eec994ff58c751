package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/config"
	"github.com/tausik/tausik/facts"
)

// project is a guard over a real project root and home directory, both
// with symlinks resolved as New wants them.
func project(t *testing.T) (g *Guard, root, home string) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, home = filepath.Join(tmp, "proj"), filepath.Join(tmp, "home")
	for _, d := range []string{filepath.Join(root, ".tausik"), filepath.Join(root, "tausik"), filepath.Join(root, "src"), filepath.Join(home, ".tausik")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := config.Paths{Project: filepath.Join(root, "tausik", "gates.json"), User: filepath.Join(home, ".tausik", "config.json")}
	return New(root, home, cfg), root, home
}

// reasons joins the targets' reasons, path: reason, one a line.
func reasons(ts []facts.ProtectedTarget) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.Path + ": " + t.Reason + "\n")
	}
	return b.String()
}

func TestTargetsWrites(t *testing.T) {
	g, root, home := project(t)
	cases := []struct {
		path   string
		reason string // "" : no hit
	}{
		{".tausik/tausik.db", "the project's tausik state (decision log, keys)"},
		{filepath.Join(root, ".tausik", "keys", "k.pem"), "the project's tausik state (decision log, keys)"},
		{"src/../.tausik/x", "the project's tausik state (decision log, keys)"},
		{"src/a.py", ""},
		{"tausik/baseline.json", "the baseline (a person records it: docs/baseline.md)"},
		{"tausik/gates.json", "the project configuration tier"},
		{"tausik/policies/mine/policy.rego", "the project's team gates"},
		{"tausik/README.md", ""},
		{"tausik/baseline.json.bak", ""},
		{".claude/settings.json", "the hook wiring of claude"},
		{".cursor/hooks.json", "the hook wiring of cursor"},
		// A directory above a guard path, written, may land on it.
		{"tausik", "a directory holding the baseline (a person records it: docs/baseline.md)"},
		{".", "a directory holding the project's tausik state (decision log, keys)"},
		{".claude", "a directory holding the hook wiring of claude"},
		// Globs hit what they may match; a dot file only by a pattern with the dot.
		{"tausik/*.json", "the baseline (a person records it: docs/baseline.md)"},
		{".taus?k", "the project's tausik state (decision log, keys)"},
		{".taus?k/db", "the project's tausik state (decision log, keys)"},
		{"*/settings.json", ""},
		{".c*/settings.json", "the hook wiring of claude"},
		{"src/*", ""},
		// A malformed element (an unclosed [) may match anything.
		{"tausik/polic[", "the baseline (a person records it: docs/baseline.md)"},
		{"[/x", ""},
		// The home directory's guard.
		{filepath.Join(home, ".tausik", "keys.json"), "the user's tausik directory (user tier, keys)"},
		{filepath.Join(home, ".tausik", "config.json"), "the user configuration tier"},
		{filepath.Join(home, "notes.txt"), ""},
		{home, "a directory holding the user configuration tier"},
	}
	for _, tc := range cases {
		got := g.Targets([]string{tc.path}, nil)
		switch {
		case tc.reason == "" && len(got) != 0:
			t.Errorf("%s: hit %s, want no hit", tc.path, reasons(got))
		case tc.reason != "" && (len(got) != 1 || got[0].Path != tc.path || got[0].Reason != tc.reason):
			t.Errorf("%s: got %q, want one target with reason %q", tc.path, reasons(got), tc.reason)
		}
	}
}

func TestTargetsDeduplicates(t *testing.T) {
	g, _, _ := project(t)
	got := g.Targets([]string{".tausik/db", "src/../.tausik/db", "src/a.py"}, nil)
	if len(got) != 1 || got[0].Path != ".tausik/db" {
		t.Errorf("got %q, want the first spelling once", reasons(got))
	}
	var none *Guard
	if none.Targets([]string{".tausik/db"}, nil) != nil {
		t.Error("a nil guard reports targets")
	}
}

func TestTargetsSymlinkIntoGuard(t *testing.T) {
	g, root, _ := project(t)
	if err := os.Symlink(filepath.Join(root, ".tausik"), filepath.Join(root, "src", "state")); err != nil {
		t.Fatal(err)
	}
	got := g.Targets([]string{"src/state/tausik.db"}, nil)
	if len(got) != 1 || !strings.HasPrefix(got[0].Reason, "the project's tausik state") {
		t.Errorf("a write through a link into .tausik: got %q", reasons(got))
	}
}

func TestTargetsNoHomeGuardsNoHome(t *testing.T) {
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	g := New(filepath.Join(tmp, "p"), "", config.Paths{})
	if got := g.Targets([]string{filepath.Join(tmp, "h", ".tausik", "keys")}, nil); len(got) != 0 {
		t.Errorf("no home: got %q", reasons(got))
	}
	call := &Call{CWD: filepath.Join(tmp, "p"), Commands: []facts.ToolCommand{{Argv: []string{"rm", "~/.tausik/keys"}}}}
	if got := g.Targets(nil, call); len(got) != 0 {
		t.Errorf("no home, ~ named: got %q", reasons(got))
	}
}

func TestMentionedTargets(t *testing.T) {
	g, root, _ := project(t)
	cases := []struct {
		name    string
		argv    []string
		dynamic []bool
		cwd     string
		want    string // the path of the one target; "" none
	}{
		{"a program that may write", []string{"sqlite3", ".tausik/tausik.db"}, nil, root, ".tausik/tausik.db"},
		{"read-only program", []string{"cat", ".tausik/tausik.db"}, nil, root, ""},
		{"read-only program by path", []string{"/usr/bin/grep", "x", ".tausik/tausik.db"}, nil, root, ""},
		{"a dynamic program is not read-only", []string{"cat", ".tausik/tausik.db"}, []bool{true, false}, root, ".tausik/tausik.db"},
		{"a dynamic argument is not a name", []string{"rm", ".tausik"}, []bool{false, true}, root, ""},
		{"an option's value", []string{"tool", "--db=.tausik/x.db"}, nil, root, ".tausik/x.db"},
		{"an option without a value", []string{"tool", "--.tausik"}, nil, root, ""},
		{"relative to the call's directory", []string{"rm", "../.tausik"}, nil, filepath.Join(root, "src"), "../.tausik"},
		{"relative without a directory", []string{"rm", ".tausik"}, nil, "", ""},
		{"home", []string{"python3", "~/.tausik/config.json"}, nil, root, "~/.tausik/config.json"},
		{"named root is not a hit", []string{"tar", "xf", "a.tar", "."}, nil, root, ""},
		{"named tausik/ is not a hit", []string{"tausik", "policy", "test", "tausik"}, nil, root, ""},
		{"a non-leaf directory above", []string{"rm", "-rf", ".claude"}, nil, root, ".claude"},
		{"no program", nil, nil, root, ""},
	}
	for _, tc := range cases {
		call := &Call{CWD: tc.cwd, Commands: []facts.ToolCommand{{Argv: tc.argv, Dynamic: tc.dynamic}}}
		got := g.Targets(nil, call)
		switch {
		case tc.want == "" && len(got) != 0:
			t.Errorf("%s: got %q, want none", tc.name, reasons(got))
		case tc.want != "" && (len(got) != 1 || got[0].Path != tc.want ||
			!strings.HasSuffix(got[0].Reason, ", named on the command line of "+filepath.Base(tc.argv[0])+", which may change it")):
			t.Errorf("%s: got %q, want %s named on %s's command line", tc.name, reasons(got), tc.want, tc.argv[0])
		}
	}
}

func TestHiddenTargets(t *testing.T) {
	g, root, _ := project(t)
	unknown := []facts.UnknownWrite{{Text: "python3 -c '...'", Reason: "an interpreter's inline code"}, {Text: "git x", Reason: "a git alias"}}
	cases := []struct {
		name    string
		command string
		unknown []facts.UnknownWrite
		named   string // "" : no targets
	}{
		{"names the state", "python3 -c 'open(\".tausik/tausik.db\",\"w\")'; git x", unknown, ".tausik"},
		{"names it in capitals", "python3 -c 'open(\".TAUSIK/db\")'", unknown, ".tausik"},
		{"names the hook wiring's directory", "node -e 'fs.rmSync(\".claude\")'", unknown, ".claude"},
		{"names nothing of the guard", "python3 -c 'print(1)'; git x", unknown, ""},
		{"names the guard, writes known", "sqlite3 .tausik/tausik.db", nil, ""},
	}
	for _, tc := range cases {
		got := g.Targets(nil, &Call{CWD: root, Command: tc.command, Unknown: tc.unknown})
		if tc.named == "" {
			if len(got) != 0 {
				t.Errorf("%s: got %q, want none", tc.name, reasons(got))
			}
			continue
		}
		if len(got) != len(tc.unknown) {
			t.Fatalf("%s: got %q, want one target per unknown part", tc.name, reasons(got))
		}
		for i, u := range tc.unknown {
			want := "a part of a call that names " + tc.named + " and whose writes cannot be known before it runs (" + u.Reason + ")"
			if got[i].Path != u.Text || got[i].Reason != want {
				t.Errorf("%s: target %d = %+v, want %q: %q", tc.name, i, got[i], u.Text, want)
			}
		}
	}
	// The unknown part's own text may name the guard.
	got := g.Targets(nil, &Call{Command: "x", Unknown: []facts.UnknownWrite{{Text: "eval \"$(cat .tausik/k)\"", Reason: "eval"}}})
	if len(got) != 1 {
		t.Errorf("the unknown part names .tausik: got %q", reasons(got))
	}
}
