//go:build !linux

package sandbox

import "os/exec"

// mode is how a sandbox is built; off Linux there is none.
type mode int

const modeNone mode = 0

func (mode) String() string { return "none" }

func candidateModes() []mode { return nil }

func setNamespaces(*exec.Cmd, mode) {}

func runInit([]string) int { return initFailed }
