//go:build linux || darwin

package main

import "syscall"

// evaluatorRuns: the evaluator runs where the client can check which
// binary serves the socket.
func evaluatorRuns() bool { return true }

// detached puts the evaluator in its own session, so the host's killing
// the hook's process group does not take it down.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
