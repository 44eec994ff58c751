//go:build !unix

package command

import "os/exec"

// ownProcessGroup is a no-op where process groups do not exist; cancellation
// then kills the tool itself only.
func ownProcessGroup(*exec.Cmd) {}
