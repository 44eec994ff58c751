package cli_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tausik/tausik/cli"
)

// exitFileEnv names the file where the tausik command of a script records
// its exit code, so that `exitcode N` can check it exactly. The file lives
// outside $WORK, where no tausik walk can see it.
const exitFileEnv = "TAUSIK_TESTSCRIPT_EXITFILE"

// uncheckedExit is the code a script's tausik exits with when the previous
// run's non-zero code was never checked; no real tausik exit uses it.
const uncheckedExit = 125

// TestMain lets the test binary stand in for the tausik binary: testscript
// re-executes it under the name "tausik", and tausikMain runs the CLI exactly
// as main.go does.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"tausik": tausikMain, "sqlexec": sqlexecMain})
}

// tausikMain is main.go plus the exit-code record. It refuses to run while
// the previous run's non-zero exit code is unchecked, so a script cannot
// stack two `! tausik` lines and assert only the last code.
func tausikMain() {
	file := os.Getenv(exitFileEnv)
	if file != "" {
		if prev, err := os.ReadFile(file); err == nil && strings.TrimSpace(string(prev)) != "0" {
			fmt.Fprintf(os.Stderr, "testscript: the previous tausik run exited %s and no `exitcode` checked it\n", strings.TrimSpace(string(prev)))
			recordExit(file, uncheckedExit)
			os.Exit(uncheckedExit)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if file != "" {
		recordExit(file, code)
	}
	os.Exit(code)
}

func recordExit(file string, code int) {
	if err := os.WriteFile(file, []byte(strconv.Itoa(code)), 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "testscript: record exit code: %v\n", err)
		os.Exit(uncheckedExit)
	}
}

// TestScripts runs the CLI end-to-end scripts in testdata/script. Besides the
// standard commands, scripts have:
//
//	exitcode N        the last tausik run exited with exactly N (and clears it)
//	genlines N FILE   write FILE with N lines, creating its directories
//	[!] emptydir DIR  DIR exists and holds nothing (or, negated, something)
//	decisionid VAR    set VAR to the decision id the last command printed
//	pgschema VAR      set VAR to the URL of a fresh schema on the test server
//	[postgres]        a test server is there (TAUSIK_TEST_POSTGRES)
//
// and the program `sqlexec DB STATEMENT...` (for exec), which tampers with a
// database the way anyone with write access to the file could.
//
// Every script runs with HOME=$WORK/home, no user or managed tier unless it
// sets one, and a git that reads no user or system config.
func TestScripts(t *testing.T) {
	exitDir := t.TempDir()
	testscript.Run(t, testscript.Params{
		Dir:                filepath.Join("testdata", "script"),
		RequireUniqueNames: true,
		Condition:          scriptCondition,
		Setup: func(env *testscript.Env) error {
			return setupScript(env, filepath.Join(exitDir, filepath.Base(env.WorkDir)+".exit"))
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":   cmdExitcode,
			"genlines":   cmdGenlines,
			"emptydir":   cmdEmptydir,
			"decisionid": cmdDecisionID,
			"expand":     cmdExpand,
			"pgschema":   cmdPGSchema,
		},
	})
}

// setupScript makes a script's environment hermetic.
func setupScript(env *testscript.Env, exitFile string) error {
	home := filepath.Join(env.WorkDir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	for k, v := range toolVars() {
		env.Setenv(k, v)
	}
	// A script is a person at the keyboard unless it sets an agent's marker.
	for _, k := range cli.AgentMarkerNames() {
		env.Setenv(k, "")
	}
	for k, v := range map[string]string{
		"HOME":                  home,
		"XDG_CONFIG_HOME":       filepath.Join(home, ".config"),
		"TAUSIK_USER_CONFIG":    "", // default: $HOME/.tausik/config.json
		"TAUSIK_MANAGED_CONFIG": "", // no managed tier
		"TAUSIK_STORE":          "", // the project's SQLite file unless a script names a server
		"GIT_CONFIG_GLOBAL":     os.DevNull,
		"GIT_CONFIG_NOSYSTEM":   "1",
		"GIT_CONFIG_COUNT":      "2",
		"GIT_CONFIG_KEY_0":      "init.defaultBranch",
		"GIT_CONFIG_VALUE_0":    "main",
		"GIT_CONFIG_KEY_1":      "advice.detachedHead",
		"GIT_CONFIG_VALUE_1":    "false",
		"GIT_AUTHOR_NAME":       "Script Author",
		"GIT_AUTHOR_EMAIL":      "author@example.test",
		"GIT_COMMITTER_NAME":    "Script Committer",
		"GIT_COMMITTER_EMAIL":   "committer@example.test",
		"GIT_TERMINAL_PROMPT":   "0",
		exitFileEnv:             exitFile,
	} {
		env.Setenv(k, v)
	}
	// Under -race every re-executed tausik would sleep a second at exit,
	// waiting for reports no exited goroutine can make.
	if gorace := os.Getenv("GORACE"); !strings.Contains(gorace, "atexit_sleep_ms") {
		env.Setenv("GORACE", strings.TrimSpace(gorace+" atexit_sleep_ms=0"))
	}
	env.Defer(func() {
		if b, err := os.ReadFile(exitFile); err == nil && strings.TrimSpace(string(b)) != "0" {
			env.T().Fatal("the last tausik run exited " + strings.TrimSpace(string(b)) + " and no `exitcode` checked it")
		}
	})
	return nil
}

// cmdExitcode checks the exit code of the last tausik run and clears it.
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("exitcode cannot be negated; name the code")
	}
	if len(args) != 1 {
		ts.Fatalf("usage: exitcode N")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	file := ts.Getenv(exitFileEnv)
	b, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		ts.Fatalf("exitcode: no tausik run since the last exitcode")
	}
	ts.Check(err)
	ts.Check(os.Remove(file))
	got, err := strconv.Atoi(strings.TrimSpace(string(b)))
	ts.Check(err)
	if got != want {
		ts.Fatalf("tausik exited %d, want %d", got, want)
	}
}

// cmdGenlines writes a file of N numbered, newline-terminated comment lines
// ("# line 7"), which every linter the built-in gates run accepts as Python.
func cmdGenlines(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: genlines N FILE")
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "# line %d\n", i)
	}
	file := ts.MkAbs(args[1])
	ts.Check(os.MkdirAll(filepath.Dir(file), 0o755))
	ts.Check(os.WriteFile(file, []byte(b.String()), 0o644))
}

// cmdExpand replaces $VAR and ${VAR} in a file with the script's
// environment, e.g. to put $WORK into a hook payload.
func cmdExpand(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: expand FILE")
	}
	file := ts.MkAbs(args[0])
	b, err := os.ReadFile(file)
	ts.Check(err)
	ts.Check(os.WriteFile(file, []byte(os.Expand(string(b), ts.Getenv)), 0o644))
}

// cmdEmptydir checks that a directory exists and is (or is not) empty.
func cmdEmptydir(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: [!] emptydir DIR")
	}
	entries, err := os.ReadDir(ts.MkAbs(args[0]))
	ts.Check(err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	switch {
	case neg && len(names) == 0:
		ts.Fatalf("%s is empty", args[0])
	case !neg && len(names) > 0:
		ts.Fatalf("%s is not empty: %s", args[0], strings.Join(names, ", "))
	}
}
