package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/tausik/tausik/runners"
)

// gitCmd runs one git binary in one directory with a fixed environment.
type gitCmd struct {
	bin string
	dir string
	env []string
}

func newGitCmd(bin, dir string) *gitCmd {
	return &gitCmd{bin: bin, dir: dir, env: runners.GitEnv()}
}

// CmdError is a git command that could not run or exited non-zero. Stderr is
// git's own message, which is what a person needs to fix a broken repository.
type CmdError struct {
	Args     []string
	ExitCode int // -1 when git did not start or was killed
	Stderr   string
	Err      error
}

// Error names the git subcommand, how it failed and what git said.
func (e *CmdError) Error() string {
	sub := "git"
	if len(e.Args) > 0 {
		sub = "git " + e.Args[0]
	}
	if e.Stderr != "" {
		return fmt.Sprintf("%s: %v: %s", sub, e.Err, e.Stderr)
	}
	return fmt.Sprintf("%s: %v", sub, e.Err)
}

// Unwrap exposes the exec or context error, so callers can test for
// exec.ErrNotFound or context.DeadlineExceeded.
func (e *CmdError) Unwrap() error { return e.Err }

// run executes git with args and returns its stdout. Global options that make
// the output stable (no pager, no colour, unquoted UTF-8 paths) come first.
func (g *gitCmd) run(ctx context.Context, args ...string) ([]byte, error) {
	full := append([]string{"--no-pager", "-c", "core.quotepath=off", "-c", "color.ui=never", "-c", "core.fsmonitor=false"}, args...)
	cmd := exec.CommandContext(ctx, g.bin, full...)
	cmd.Dir = g.dir
	cmd.Env = g.env
	cmd.Stdin = nil
	// A child git started (a hook, a submodule's status) can hold the output
	// open after git itself is killed: stop waiting for it soon after.
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	err := cmd.Run()
	if err == nil {
		return stdout.Bytes(), nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		err = ctxErr
	}
	ce := &CmdError{Args: args, ExitCode: -1, Stderr: strings.TrimSpace(stderr.String()), Err: err}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		ce.ExitCode = exitErr.ExitCode()
	}
	return stdout.Bytes(), ce
}

// result is one git command's stdout and error, as run returns them.
type result struct {
	out []byte
	err error
}

// runAll runs every argv at once and returns their results in order. It waits
// for all of them: one failing cancels none of the others, so which error a
// caller reports depends on its order of checks, never on timing.
func (g *gitCmd) runAll(ctx context.Context, argvs ...[]string) []result {
	res := make([]result, len(argvs))
	var wg sync.WaitGroup
	for i, args := range argvs[1:] {
		wg.Go(func() { res[i+1].out, res[i+1].err = g.run(ctx, args...) })
	}
	res[0].out, res[0].err = g.run(ctx, argvs[0]...)
	wg.Wait()
	return res
}

// exitCode returns git's exit code for err, or -1 when err is not a finished
// git command.
func exitCode(err error) int {
	var ce *CmdError
	if errors.As(err, &ce) {
		return ce.ExitCode
	}
	return -1
}
