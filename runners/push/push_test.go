package push

import (
	"testing"

	"github.com/tausik/tausik/facts"
)

// TestMayPush pins the filter in front of git_push_gate: a call with a word
// holding "push" or a word known only at run time is gathered (and judged),
// any other call is not.
func TestMayPush(t *testing.T) {
	cmd := func(dyn bool, argv ...string) facts.ToolShellCommand {
		d := make([]bool, len(argv))
		if dyn {
			d[len(d)-1] = true
		}
		return facts.ToolShellCommand{Argv: argv, Dynamic: d}
	}
	for _, c := range []struct {
		cmds []facts.ToolShellCommand
		want bool
	}{
		{[]facts.ToolShellCommand{cmd(false, "git", "push")}, true},
		{[]facts.ToolShellCommand{cmd(false, "ls"), cmd(false, "git", "-c", "alias.p=push", "p")}, true},
		{[]facts.ToolShellCommand{cmd(true, "git", "")}, true},
		{[]facts.ToolShellCommand{cmd(true, "")}, true},
		{[]facts.ToolShellCommand{cmd(false, "git", "send-pack", "../o.git", "main")}, true},
		{[]facts.ToolShellCommand{cmd(false, "git", "status"), cmd(false, "grep", "-n", "x")}, false},
		{nil, false},
	} {
		if got := mayPush(&facts.Tool{Commands: c.cmds}); got != c.want {
			t.Errorf("mayPush(%v) = %v, want %v", c.cmds, got, c.want)
		}
	}
}
