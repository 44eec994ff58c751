package engine

import (
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/guard"
	"github.com/tausik/tausik/engine/toolcall"

	"github.com/tausik/tausik/engine/config"

	"github.com/tausik/tausik/facts"
)

// TestGuardNamedOnACommandLine: a program that may write, given tausik's
// state or a tier file on its command line (sqlite3 .tausik/tausik.db, a
// script given --db=…, cd into .tausik), is judged and the path protected;
// a read-only program, a dynamic word and a path outside the guard are not.
func TestGuardNamedOnACommandLine(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	e := &Engine{root: root, guard: guard.New(root, home, config.Paths{User: home + "/.tausik/config.json", Managed: "/etc/team-tier.json"})}
	lit := func(argv ...string) facts.ToolCommand {
		return facts.ToolCommand{Argv: argv, Dynamic: make([]bool, len(argv))}
	}
	for _, c := range []struct {
		cmd     facts.ToolCommand
		reason  string // the first protected target's reason, "" for none
		comment string
	}{
		{lit("sqlite3", ".tausik/tausik.db", "update tasks set scope_paths='[\"**\"]'"), "the project's tausik state", "an SQL client on the log"},
		{lit("python3", "tools/x.py", "--db=.tausik/tausik.db"), "the project's tausik state", "an option's value"},
		{lit("cd", ".tausik"), "the project's tausik state", "cd into the state, then a relative path"},
		{lit("vim", "~/.tausik/config.json"), "the user configuration tier", "~ is the home directory"},
		{lit("cp", "x", ".claude/settings.json"), "the hook wiring of claude", "hook wiring by its base name"},
		{lit("python3", "w.py", "/etc/team-tier.json"), "the managed configuration tier", "a tier file the environment names"},
		{lit("cat", ".tausik/tausik.db"), "", "read-only program"},
		{lit("grep", "-r", "x", ".tausik"), "", "read-only program"},
		{facts.ToolCommand{Argv: []string{"sqlite3", "$DB"}, Dynamic: []bool{false, true}}, "", "a dynamic word is judged by what it writes"},
		{lit("python3", "tools/tausik_report.py", "src/a.py"), "", "a hint that is not the guard: judged, nothing protected"},
		{lit("go", "test", "./..."), "", "nothing near the guard"},
	} {
		cmds := []facts.ToolCommand{c.cmd}
		got := e.protectedTargets(Request{Trigger: TriggerPreWrite, Tool: &toolcall.Call{Kind: toolcall.KindShell, Commands: cmds, CWD: root}})
		switch {
		case c.reason == "" && len(got) != 0:
			t.Errorf("%s (%s): protected as %v", c.cmd.Argv, c.comment, got)
		case c.reason != "" && (len(got) == 0 || !strings.HasPrefix(got[0].Reason, c.reason)):
			t.Errorf("%s (%s): got %v, want a reason starting %q", c.cmd.Argv, c.comment, got, c.reason)
		}
	}
}
