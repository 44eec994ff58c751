// Command tausik-hook is the hook command `tausik init` wires into agent
// hosts when it is installed beside tausik: a thin client that links none
// of the engine (no OPA, CEL, SQLite or MCP library), so it starts in about
// a millisecond. It forwards the host's call to the project's resident
// evaluator (`tausik hook serve`, started on demand by the first call and
// gone after an idle time) and prints its answer. When the evaluator is
// absent, stale, of another protocol version or does not answer within a
// deadline, it runs `tausik hook HOST EVENT` itself: the same verdict,
// slower, and never an allow for want of an answer.
//
//	tausik-hook HOST EVENT < payload.json
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/tausik/tausik/internal/hookwire"
)

// TAUSIK_HOOKD=off skips the evaluator; =require refuses a call the
// evaluator did not answer instead of judging it in process (to check that
// an evaluator serves, and in tests and benchmarks).

// deadline is how long the client waits for the evaluator before it judges
// the call itself; a warm evaluator answers in milliseconds, and the host's
// own timeout (30 s as tausik init sets it) leaves room for the fallback.
const deadline = 5 * time.Second

// maxPayload bounds what is read from stdin; the in-process path refuses a
// payload past its own bound, which is smaller.
const maxPayload = 8<<20 + 1

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) != 2 {
		fmt.Fprintln(stderr, "usage: tausik-hook HOST EVENT < payload.json (the call is refused)")
		return 2
	}
	full, err := fullBinary(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "tausik-hook: %v; the call is refused\n", err)
		return 2
	}
	payload, err := io.ReadAll(io.LimitReader(stdin, maxPayload))
	if err != nil {
		fmt.Fprintf(stderr, "tausik-hook: cannot read the hook payload: %v; the call is refused\n", err)
		return 2
	}
	wd, _ := os.Getwd()
	mode := getenv("TAUSIK_HOOKD")
	if mode != "off" && evaluatorRuns() {
		a, err := viaEvaluator(full, args, payload, wd, getenv)
		if err == nil {
			stdout.Write(a.Stdout)
			stderr.Write(a.Stderr)
			return a.Code
		}
		if mode == "require" {
			fmt.Fprintf(stderr, "tausik-hook: no answer from the evaluator (TAUSIK_HOOKD=require): %v; the call is refused\n", err)
			return 2
		}
	}
	return inProcess(full, args, payload, stdout, stderr)
}

// viaEvaluator forwards the call to the evaluator of the project the call
// seems to come from, starting one when none listens there.
func viaEvaluator(full string, args []string, payload []byte, wd string, getenv func(string) string) (*hookwire.Answer, error) {
	root := hookwire.GuessRoot(args[0], getenv, payload, wd)
	if root == "" {
		return nil, errors.New("no project with a store at or above the working directory")
	}
	id, err := hookwire.Stat(full)
	if err != nil {
		return nil, err
	}
	req := &hookwire.Request{Host: args[0], Event: args[1], WD: wd, Env: os.Environ(), Binary: id, Payload: payload}
	sock := hookwire.Socket(root)
	a, err := hookwire.Forward(sock, req, deadline)
	if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) {
		start(full, root)
	}
	return a, err
}

// start launches an evaluator for root in its own session, detached from
// this call; it does not wait for it. Two clients starting one at once are
// fine: the second evaluator finds the lock taken and exits.
func start(full, root string) {
	logf, err := os.OpenFile(filepath.Join(root, ".tausik", hookwire.LogName), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	defer logf.Close()
	cmd := exec.Command(full, "hook", "serve", "--root", root)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = detached()
	if cmd.Start() == nil {
		_ = cmd.Process.Release()
	}
}

// inProcess runs the full tausik binary's hook command on the payload.
func inProcess(full string, args []string, payload []byte, stdout, stderr io.Writer) int {
	cmd := exec.Command(full, "hook", args[0], args[1])
	cmd.Stdin = bytes.NewReader(payload)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode()
	default:
		fmt.Fprintf(stderr, "tausik-hook: %s: %v; the call is refused\n", full, err)
		return 2
	}
}

// fullBinary is the tausik binary the client falls back to: $TAUSIK_BIN,
// else tausik beside this executable, else tausik on PATH.
func fullBinary(getenv func(string) string) (string, error) {
	if p := getenv("TAUSIK_BIN"); p != "" {
		return p, nil
	}
	name := "tausik"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if self, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(self), name); isFile(p) {
			return p, nil
		}
	}
	p, err := exec.LookPath("tausik")
	if err != nil {
		return "", errors.New("no tausik binary beside tausik-hook, in $TAUSIK_BIN or on PATH")
	}
	return filepath.Abs(p)
}

func isFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}
