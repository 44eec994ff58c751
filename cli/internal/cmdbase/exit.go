package cmdbase

import (
	"errors"
	"strings"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/internal/app"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/artifacts"
)

// ErrBlocked and ErrTestsFailed carry a verdict, already rendered, out of a
// command. They print nothing more.
var (
	ErrBlocked     = errors.New("blocked by a gate")
	ErrTestsFailed = errors.New("policy tests failed")
	// ErrCheckFailed carries a failed integrity check (log verify, receipt
	// verify), already reported: exit 1, like a block.
	ErrCheckFailed = errors.New("verification failed")
)

// UsageError marks a malformed command line.
type UsageError struct{ err error }

// Error is the wrapped error's message.
func (e UsageError) Error() string { return e.err.Error() }

// Unwrap is the wrapped error.
func (e UsageError) Unwrap() error { return e.err }

// UsageErr marks err as a usage error: exit 2.
func UsageErr(err error) error { return UsageError{err} }

// HostExit is an answer in an agent host's own hook protocol (Claude Code:
// exit 2 with the reason on stderr blocks the tool call). The hook command
// has told its story on stderr already.
type HostExit struct {
	// Code is the process exit code the host reads.
	Code int
}

// Error says a hook answered; the answer itself is on stderr.
func (e HostExit) Error() string { return "hook verdict" }

// VerdictErr is what a command returns once it has rendered the decision a
// flow acted on: the flow's own error, else ErrBlocked when a gate blocked.
func VerdictErr(err error, blocked bool) error {
	if err == nil && blocked {
		return ErrBlocked
	}
	return err
}

// ExitCode is the one table from errors to exit codes.
func ExitCode(err error) int {
	var ue UsageError
	var he HostExit
	switch {
	case err == nil:
		return engine.ExitPassed
	case errors.As(err, &he):
		return he.Code
	case errors.Is(err, ErrBlocked), errors.Is(err, ErrCheckFailed), errors.Is(err, diag.ErrInvalidReceipt),
		errors.Is(err, app.ErrInvalidProof):
		return engine.ExitBlocked
	case errors.Is(err, ErrTestsFailed):
		return engine.ExitTestsFailed
	case errors.As(err, &ue), errors.Is(err, diag.ErrUsage), errors.Is(err, diag.ErrExists), isCobraUsage(err),
		errors.Is(err, artifacts.ErrUsage), errors.Is(err, artifacts.ErrNotFound), errors.Is(err, artifacts.ErrExists):
		return engine.ExitUsage
	}
	return engine.ExitError
}

// isCobraUsage recognises the usage errors cobra returns as plain errors.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "required flag", "unknown flag", "unknown shorthand flag"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}

// IsSilent reports errors whose story the command already told on stdout.
func IsSilent(err error) bool {
	var he HostExit
	return errors.Is(err, ErrBlocked) || errors.Is(err, ErrTestsFailed) || errors.Is(err, ErrCheckFailed) || errors.As(err, &he)
}
