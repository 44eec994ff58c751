//go:build unix

package command

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup puts the tool in a process group of its own and makes
// cancellation kill the whole group, so a timeout also ends what the tool
// started (pytest's workers, node's children) instead of leaving them holding
// the output pipes.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
