package store

import (
	"github.com/tausik/tausik/store/internal/storetest"

	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Multi-process tests re-execute this test binary as a helper process: when
// TAUSIK_STORE_HELPER is set, TestMain runs the helper instead of the tests.

const helperEnv = "TAUSIK_STORE_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode, os.Getenv("TAUSIK_STORE_DB"), os.Getenv("TAUSIK_STORE_N"), os.Getenv("TAUSIK_STORE_TAG")))
	}
	code := m.Run()
	storetest.DropMigrated()
	os.Exit(code)
}

func runHelper(mode, path, nStr, tag string) int {
	ctx := context.Background()
	n, _ := strconv.Atoi(nStr)
	s, err := openTarget(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "helper open:", err)
		return 1
	}
	defer s.Close()
	switch mode {
	case "append":
		for i := range n {
			if _, err := s.AppendDecision(ctx, mkDecision(time.Now(), "commit", tag)); err != nil {
				fmt.Fprintf(os.Stderr, "helper append %d: %v\n", i, err)
				return 1
			}
		}
	case "toolcalls":
		for i := range n {
			if _, err := s.RecordToolCall(ctx, tag); err != nil {
				fmt.Fprintf(os.Stderr, "helper tool call %d: %v\n", i, err)
				return 1
			}
		}
	case "crash":
		// Append until killed, reporting each append only after it committed.
		for {
			a, err := s.AppendDecision(ctx, mkDecision(time.Now(), "commit", tag))
			if err != nil {
				fmt.Fprintln(os.Stderr, "helper append:", err)
				return 1
			}
			fmt.Fprintf(os.Stdout, "ok %d\n", a.Seq)
		}
	default:
		fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
		return 2
	}
	return 0
}

func helperCmd(t *testing.T, mode, path string, n int, tag string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode, "TAUSIK_STORE_DB="+path,
		"TAUSIK_STORE_N="+strconv.Itoa(n), "TAUSIK_STORE_TAG="+tag)
	return cmd
}

func runHelpers(t *testing.T, mode, path string, procs, n int) {
	t.Helper()
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for i := range procs {
		cmd := helperCmd(t, mode, path, n, fmt.Sprintf("p%d", i))
		out := &strings.Builder{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("helper %d: %v\n%s", i, err, outs[i])
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}

func newFileDB(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), ".tausik", "tausik.db")
	s, err := Open(context.Background(), p) // create and migrate once up front
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	return p
}

func newPostgresDB(t *testing.T) string { return migratedPostgres(t) }

// openTarget opens a file path or a postgres:// URL, as the helpers get them.
func openTarget(ctx context.Context, target string, opts ...Option) (*Store, error) {
	if IsPostgresURL(target) {
		return OpenPostgres(ctx, target, opts...)
	}
	return Open(ctx, target, opts...)
}

// eachBackend runs test once per backend on a fresh, migrated database whose
// path or URL it is given, so the multi-process guarantees are held on both.
func eachBackend(t *testing.T, test func(t *testing.T, target string)) {
	t.Run("sqlite", func(t *testing.T) { test(t, newFileDB(t)) })
	t.Run("postgres", func(t *testing.T) { test(t, newPostgresDB(t)) })
}

func TestConcurrentProcessesAppend(t *testing.T) { eachBackend(t, testConcurrentProcessesAppend) }

func testConcurrentProcessesAppend(t *testing.T, p string) {
	const procs, each = 8, 500
	runHelpers(t, "append", p, procs, each)
	s, err := openTarget(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rep := mustVerify(t, s)
	if rep.Rows != procs*each {
		t.Fatalf("%d rows, want %d", rep.Rows, procs*each)
	}
	for i := range procs {
		es, err := s.ListDecisions(context.Background(), Filter{Task: fmt.Sprintf("p%d", i)})
		if err != nil || len(es) != each {
			t.Fatalf("process %d: %d decisions, %v", i, len(es), err)
		}
	}
}

func TestConcurrentStoresAppend(t *testing.T) { eachBackend(t, testConcurrentStoresAppend) }

func testConcurrentStoresAppend(t *testing.T, p string) {
	const workers, each = 8, 250
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := openTarget(context.Background(), p)
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
			for range each {
				if _, err := s.AppendDecision(context.Background(), mkDecision(time.Now(), "commit", fmt.Sprintf("g%d", w))); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	s, err := openTarget(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if rep := mustVerify(t, s); rep.Rows != workers*each {
		t.Fatalf("%d rows, want %d", rep.Rows, workers*each)
	}
}

func TestConcurrentToolCallsLoseNothing(t *testing.T) {
	eachBackend(t, testConcurrentToolCallsLoseNothing)
}

func testConcurrentToolCallsLoseNothing(t *testing.T, p string) {
	const procs, each, goroutines = 8, 100, 8
	ctx := context.Background()
	s, err := openTarget(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.StartSession(ctx); err != nil {
		t.Fatal(err)
	}
	runHelpers(t, "toolcalls", p, procs, each)
	var wg sync.WaitGroup
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			other, err := openTarget(ctx, p)
			if err != nil {
				t.Error(err)
				return
			}
			defer other.Close()
			for range each {
				if _, err := other.RecordToolCall(ctx, "Edit"); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	want := int64((procs + goroutines) * each)
	sess, err := s.OpenSession(ctx)
	if err != nil || sess.ToolCalls != want {
		t.Fatalf("tool calls %d, want %d (%v)", sess.ToolCalls, want, err)
	}
	var rows int64
	if err := s.db.Conn().QueryRowContext(ctx, "SELECT COUNT(*) FROM session_calls WHERE session_id = ?", sess.ID).Scan(&rows); err != nil || rows != want {
		t.Fatalf("call rows %d, want %d (%v)", rows, want, err)
	}
}

// TestCrashMidAppend kills an appending process with SIGKILL at an arbitrary
// point, three times over the same file: each time the database must open,
// the chain must verify, and the row count must be what the child reported
// committed, or one more (committed but killed before it could say so).
func TestCrashMidAppend(t *testing.T) { eachBackend(t, testCrashMidAppend) }

func testCrashMidAppend(t *testing.T, p string) {
	ctx := context.Background()
	var reported int64
	for round, waitFor := range []int{50, 137, 10} {
		cmd := helperCmd(t, "crash", p, 0, fmt.Sprintf("crash%d", round))
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stdout)
		lines, killed := 0, false
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "ok ") {
				lines++
			}
			if lines == waitFor && !killed {
				if err := cmd.Process.Kill(); err != nil { // SIGKILL on Unix
					t.Fatal(err)
				}
				killed = true
			}
		}
		err = cmd.Wait()
		if !killed {
			t.Fatalf("round %d: helper ended before the kill: %v\n%s", round, err, stderr.String())
		}
		reported += int64(lines)

		s, err := openTarget(ctx, p)
		if err != nil {
			t.Fatalf("round %d: open after crash: %v", round, err)
		}
		rep := mustVerify(t, s)
		if rep.Rows != reported && rep.Rows != reported+1 {
			t.Fatalf("round %d: %d rows, child reported %d committed", round, rep.Rows, reported)
		}
		reported = rep.Rows // an unreported commit is still a commit
		s.Close()
	}
}
