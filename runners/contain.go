package runners

import (
	"os/exec"
	"time"
)

// ChildWaitDelay is how long Wait goes on waiting for a child's output pipes
// after the child exited or was killed; a descendant that keeps them open is
// cut off.
const ChildWaitDelay = 2 * time.Second

// Contain makes the cancellation of cmd's context end everything cmd starts,
// for runners that run tools (command gates, an MCP server): the child runs
// in a process group of its own that cancellation kills whole, so a timeout
// also ends what the tool started (pytest's workers, node's children) instead
// of leaving them holding the output pipes, and Wait gives up on pipes still
// held after ChildWaitDelay. Call it before cmd.Start.
func Contain(cmd *exec.Cmd) {
	setProcessGroup(cmd)
	cmd.WaitDelay = ChildWaitDelay
}
