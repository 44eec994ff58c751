// Package sandbox runs a tool with every file outside a few directories
// read-only, so a tool a fixture runs (pytest and the fixture's conftest.py,
// ruff, a generator) cannot write into the working tree, HOME or /tmp.
//
// On Linux the tool starts in new user and mount namespaces (as root, where
// user namespaces are refused, in a new mount namespace alone): the tausik
// binary re-executes itself as a tiny init (see init below) that makes every
// mount read-only recursively, binds the writable directories back writable,
// drops every capability and executes the tool. Mount changes stay inside
// the namespace; nothing is unmounted or changed outside it. Where the
// kernel allows neither, Available says why and Confine returns
// ErrUnavailable: the caller runs the tool unconfined and says so.
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
)

// ErrUnavailable is Confine's error on a machine where no sandbox can be
// built; Available gives the reason.
var ErrUnavailable = errors.New("no sandbox on this machine")

// initArg0 is the argv[0] under which the tausik binary acts as the
// sandbox's init instead of as itself.
const initArg0 = "tausik-sandbox-init"

// probeArg makes the init build the sandbox and exit 0 without a tool.
const probeArg = "probe"

// EnvSandbox set to "off" turns the sandbox off for one run, to debug a
// tool the sandbox breaks or to see the working-tree snapshot catch a
// fixture's writes; every run it touches says it ran unconfined.
const EnvSandbox = "TAUSIK_SANDBOX"

// initFailed is the init's exit code when it cannot build the sandbox
// (after a probe succeeded): distinct from a tool's usual codes.
const initFailed = 125

func init() {
	if len(os.Args) > 1 && os.Args[0] == initArg0 {
		os.Exit(runInit(os.Args[1:]))
	}
}

var availability = sync.OnceValues(probe)

// Available reports whether Confine can confine a tool on this machine,
// with how ("user+mount namespace", "mount namespace") or, when it cannot,
// why. The answer is probed once per process, by building a sandbox for
// real.
func Available() (bool, string) {
	m, reason := availability()
	if m == modeNone {
		return false, reason
	}
	return true, m.String()
}

// Confine rewrites cmd, whose Path is the tool's resolved path and Args its
// argv, to run inside a sandbox where only writable (and what lies below
// them) can be written. Call it after every other change to cmd's
// SysProcAttr. It returns ErrUnavailable when the machine allows no sandbox.
func Confine(cmd *exec.Cmd, writable ...string) error {
	m, reason := availability()
	if m == modeNone {
		return fmt.Errorf("%w: %s", ErrUnavailable, reason)
	}
	args := []string{initArg0, strconv.Itoa(len(writable))}
	args = append(args, writable...)
	cmd.Args = append(append(args, cmd.Path), cmd.Args...)
	cmd.Path = "/proc/self/exe"
	setNamespaces(cmd, m)
	return nil
}

// probe builds a sandbox once, with a user namespace and then (as root)
// without, and returns the mode that worked.
func probe() (mode, string) {
	if os.Getenv(EnvSandbox) == "off" {
		return modeNone, EnvSandbox + "=off"
	}
	var reasons []string
	for _, m := range candidateModes() {
		cmd := exec.Command("/proc/self/exe")
		cmd.Args = []string{initArg0, probeArg}
		setNamespaces(cmd, m)
		out, err := cmd.CombinedOutput()
		if err == nil {
			return m, ""
		}
		reasons = append(reasons, fmt.Sprintf("%s: %v %s", m, err, out))
	}
	if len(reasons) == 0 {
		return modeNone, "namespaces are Linux's"
	}
	return modeNone, fmt.Sprint(reasons)
}
