package engine

import (
	"testing"

	"github.com/tausik/tausik/engine/guard"
	"github.com/tausik/tausik/engine/toolcall"

	"github.com/tausik/tausik/engine/config"

	"github.com/tausik/tausik/facts"
)

// TestJudgedShellCallsThatMayRunTausik: a shell call that writes nothing is
// judged only when it may run tausik (a literal tausik, or go run), so
// agent_authority sees `tausik task scope` while `go test` costs nothing.
func TestJudgedCalls(t *testing.T) {
	cmd := func(dyn bool, argv ...string) toolcall.Call {
		return toolcall.Call{Kind: toolcall.KindShell, Commands: []facts.ToolCommand{{Argv: argv, Dynamic: append([]bool{dyn}, make([]bool, len(argv)-1)...)}}}
	}
	for _, c := range []struct {
		call toolcall.Call
		want bool
	}{
		{cmd(false, "tausik", "task", "scope", "t", "**"), true},
		{cmd(false, "go", "test", "./..."), true},
		{cmd(false, "echo", "tausik task scope"), true},
		{cmd(true, "tausik", "key", "init"), true},
		{toolcall.Call{Kind: toolcall.KindWrite, Writes: []string{"a.py"}}, true},
		{toolcall.Call{Kind: toolcall.KindWrite, Unknown: []facts.UnknownWrite{{Text: "x", Reason: "y"}}}, true},
		{toolcall.Call{Kind: toolcall.KindWrite}, false},
		{toolcall.Call{Kind: toolcall.KindRead, Commands: cmd(false, "tausik", "init").Commands}, false},
		{toolcall.Call{Kind: toolcall.KindOther, Writes: []string{"a.py"}}, false},
		{toolcall.Call{Kind: toolcall.KindMCP, MCP: &facts.ToolMCP{Server: "github", Tool: "create_issue"}}, true},
		{toolcall.Call{Kind: toolcall.KindFetch, URL: "https://example.com"}, true},
	} {
		if got := c.call.Judged(); got != c.want {
			t.Errorf("Judged(%+v) = %v, want %v", c.call, got, c.want)
		}
	}
}

// TestProtectedTargets: a target is protected when it is a guard file, lies
// below a guarded directory, or is a directory above a guard path (said so),
// the project root and the home directory included. tausik/ itself is,
// when written (git checkout HEAD~1 -- tausik rewrites the baseline); a
// glob is protected when it may match a guard path, a dot file only when it
// says the dot.
func TestProtectedTargets(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	e := &Engine{root: root, guard: guard.New(root, home, config.Paths{Project: root + "/tausik/gates.json", User: home + "/.tausik/config.json", Managed: "/etc/managed.json"})}
	for _, c := range []struct {
		path, reason string
	}{
		{home + "/.tausik/config.json", "the user configuration tier"},
		{home + "/.tausik/keys/k", "the user's tausik directory (user tier, keys)"},
		{"/etc/managed.json", "the managed configuration tier"},
		{root + "/.tausik/tausik.db", "the project's tausik state (decision log, keys)"},
		{".tausik/keys/x", "the project's tausik state (decision log, keys)"},
		{root + "/.claude/settings.json", "the hook wiring of claude"},
		{root + "/.claude", "a directory holding the hook wiring of claude"},
		{"/", "a directory holding the user configuration tier"},
		{root + "/opencode.jsonc", "the hook wiring of opencode"},
		{root + "/src/a.py", ""},
		{root + "/tausik/baseline.json", "the baseline (a person records it: docs/baseline.md)"},
		{root + "/tausik/gates.json", "the project configuration tier"},
		{"tausik/policies/mine/policy.rego", "the project's team gates"},
		{root + "/tausik/policies", "the project's team gates"},
		{root + "/tausik", "a directory holding the baseline (a person records it: docs/baseline.md)"},
		{root + "/tausik/*.json", "the baseline (a person records it: docs/baseline.md)"},
		{root + "/tausik/gates.js?n", "the project configuration tier"},
		{root + "/taus[i]k", "a directory holding the baseline (a person records it: docs/baseline.md)"},
		{root + "/.taus*/tausik.db", "the project's tausik state (decision log, keys)"},
		{root + "/.*/keys/k", "the project's tausik state (decision log, keys)"},
		{root + "/*/keys/k", ""},
		{root + "/tausik/*.md", ""},
		{root + "/src/*.json", ""},
		{root + "/*.py", ""},
		{root + "/.claude/notes.md", ""},
		{root, "a directory holding the project's tausik state (decision log, keys)"},
		{home, "a directory holding the user configuration tier"},
		{"/etc/other.json", ""},
	} {
		got := e.protectedTargets(Request{Trigger: TriggerPreWrite, Tool: &toolcall.Call{Writes: []string{c.path}}})
		switch {
		case c.reason == "" && len(got) != 0:
			t.Errorf("%s: protected as %v", c.path, got)
		case c.reason != "" && (len(got) != 1 || got[0].Reason != c.reason || got[0].Path != c.path):
			t.Errorf("%s: got %v, want reason %q", c.path, got, c.reason)
		}
	}
	if got := e.protectedTargets(Request{Trigger: "commit", Files: []string{".tausik/x"}}); got != nil {
		t.Errorf("only pre-write is judged: %v", got)
	}
}
