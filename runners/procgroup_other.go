//go:build !unix

package runners

import "os/exec"

// setProcessGroup is a no-op where process groups do not exist; cancellation
// then kills the started process only.
func setProcessGroup(*exec.Cmd) {}
