//go:build !linux && !darwin

package main

import "syscall"

// evaluatorRuns: no evaluator here (Windows has no peer check the client
// could trust); every call takes the in-process path.
func evaluatorRuns() bool { return false }

func detached() *syscall.SysProcAttr { return nil }
