package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// relocatingEnv are variables that point git at another repository or work
// tree than the directory it runs in. A hook or an outer git process sets
// them; left in place they would make the runner observe a different project
// than the scope's root.
var relocatingEnv = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_PREFIX",
}

// gitCmd runs one git binary in one directory with a fixed environment.
type gitCmd struct {
	bin string
	dir string
	env []string
}

func newGitCmd(bin, dir string) *gitCmd {
	env := make([]string, 0, len(os.Environ())+6)
	for _, kv := range os.Environ() {
		key, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, r := range relocatingEnv {
			if key == r {
				drop = true
				break
			}
		}
		if !drop {
			env = append(env, kv)
		}
	}
	env = append(env,
		"LC_ALL=C",
		"LANGUAGE=",
		// status would otherwise refresh and rewrite the index, racing with
		// the user's own git commands and other tausik processes.
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_TERMINAL_PROMPT=0",
	)
	return &gitCmd{bin: bin, dir: dir, env: env}
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
	full := append([]string{"--no-pager", "-c", "core.quotepath=off", "-c", "color.ui=never"}, args...)
	cmd := exec.CommandContext(ctx, g.bin, full...)
	cmd.Dir = g.dir
	cmd.Env = g.env
	cmd.Stdin = nil
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

// exitCode returns git's exit code for err, or -1 when err is not a finished
// git command.
func exitCode(err error) int {
	var ce *CmdError
	if errors.As(err, &ce) {
		return ce.ExitCode
	}
	return -1
}
