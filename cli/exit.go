package cli

import (
	"errors"
	"strings"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/internal/app"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/artifacts"
)

// errBlocked and errTestsFailed carry a verdict, already rendered, out of a
// command. They print nothing more.
var (
	errBlocked     = errors.New("blocked by a gate")
	errTestsFailed = errors.New("policy tests failed")
	// errCheckFailed carries a failed integrity check (log verify, receipt
	// verify), already reported: exit 1, like a block.
	errCheckFailed = errors.New("verification failed")
)

// usageError marks a malformed command line.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usageErr(err error) error { return usageError{err} }

// hostExit is an answer in an agent host's own hook protocol (Claude Code:
// exit 2 with the reason on stderr blocks the tool call). The hook command
// has told its story on stderr already.
type hostExit struct{ code int }

func (e hostExit) Error() string { return "hook verdict" }

// verdictErr is what a command returns once it has rendered the decision a
// flow acted on: the flow's own error, else errBlocked when a gate blocked.
func verdictErr(err error, blocked bool) error {
	if err == nil && blocked {
		return errBlocked
	}
	return err
}

// exitCode is the one table from errors to exit codes.
func exitCode(err error) int {
	var ue usageError
	var he hostExit
	switch {
	case err == nil:
		return engine.ExitPassed
	case errors.As(err, &he):
		return he.code
	case errors.Is(err, errBlocked), errors.Is(err, errCheckFailed), errors.Is(err, diag.ErrInvalidReceipt),
		errors.Is(err, app.ErrInvalidProof):
		return engine.ExitBlocked
	case errors.Is(err, errTestsFailed):
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

// isSilent reports errors whose story the command already told on stdout.
func isSilent(err error) bool {
	var he hostExit
	return errors.Is(err, errBlocked) || errors.Is(err, errTestsFailed) || errors.Is(err, errCheckFailed) || errors.As(err, &he)
}
