package command

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/tausik/tausik/internal/sandbox"
	"github.com/tausik/tausik/runners"
)

// Reasons a namespace carries when the tool did not run to an exit code, or
// its output could not be read. Policies map them to outcomes.
const (
	ReasonNoFiles     = "no_files"
	ReasonNotFound    = "not_found"
	ReasonTimeout     = "timeout"
	ReasonCanceled    = "canceled"
	ReasonStartFailed = "start_failed"
	ReasonKilled      = "killed"
	ReasonParseError  = "parse_error"
)

// outcome is what running the tool produced.
type outcome struct {
	ran      bool
	exitCode int
	reason   string
	detail   string
	stdout   *capture
	stderr   *capture
	duration time.Duration
}

// execute runs argv in dir with env added to the inherited environment,
// sandboxed with confine writable when confine is not nil (and the machine
// allows a sandbox). It never returns an error: every failure is an outcome
// with a reason.
func execute(ctx context.Context, dir string, argv, env, confine []string, timeout time.Duration, limit, tailKeep int) outcome {
	out := outcome{exitCode: -1, stdout: newCapture(limit, tailKeep), stderr: newCapture(limit, tailKeep)}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		out.reason, out.detail = ReasonNotFound, err.Error()
		if !errors.Is(err, exec.ErrNotFound) && !errors.Is(err, fs.ErrNotExist) {
			out.reason = ReasonStartFailed
		}
		return out
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, path, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout = out.stdout
	cmd.Stderr = out.stderr
	runners.Contain(cmd)
	if confine != nil {
		_ = sandbox.Confine(cmd, confine...) // ErrUnavailable: unconfined, as the caller reports
	}

	start := time.Now()
	err = cmd.Run()
	out.duration = time.Since(start)
	switch {
	case ctx.Err() != nil:
		out.reason, out.detail = ReasonCanceled, fmt.Sprintf("%s: canceled: %v", argv[0], ctx.Err())
		return out
	case errors.Is(tctx.Err(), context.DeadlineExceeded):
		out.reason, out.detail = ReasonTimeout, fmt.Sprintf("%s: no exit within %s", argv[0], timeout)
		return out
	}
	state := cmd.ProcessState
	if err != nil && state == nil {
		out.reason, out.detail = ReasonStartFailed, err.Error()
		if errors.Is(err, fs.ErrNotExist) {
			out.reason = ReasonNotFound
		}
		return out
	}
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		out.reason, out.detail = ReasonKilled, fmt.Sprintf("%s: killed by signal %v", argv[0], ws.Signal())
		return out
	}
	// An exit code, possibly with exec.ErrWaitDelay when a child kept the
	// pipes open after the tool itself exited: the tool's verdict stands.
	out.ran, out.exitCode = true, state.ExitCode()
	return out
}
