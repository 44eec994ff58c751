package taskflow

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/stdrunners"

	_ "modernc.org/sqlite"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/config"
	"github.com/tausik/tausik/policies"
	"github.com/tausik/tausik/store"
	"github.com/tausik/tausik/store/receipt"
)

// testClock is the engine clock of a flow test, moved by hand.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// builtinSubset holds only the named built-in bundles, so a flow test does
// not depend on which other gates ship.
func builtinSubset(t *testing.T, names ...string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	for _, name := range names {
		err := fs.WalkDir(policies.FS, name, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(policies.FS, p)
			m[p] = &fstest.MapFile{Data: b}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// writeFiles writes files (slash paths → contents) under root.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// flowProject is a project on disk with a real store file, a signing key
// and the workflow gates, where filesize also listens to verify.
type flowProject struct {
	root  string
	db    string
	clock *testClock
	e     *engine.Engine
	st    *store.Store
}

func newFlowProject(t *testing.T, cfg string) *flowProject {
	t.Helper()
	root := t.TempDir()
	if cfg == "" {
		cfg = `{"gates": {"filesize": {"triggers": ["task-done", "commit", "verify"]}}}`
	}
	writeFiles(t, root, map[string]string{
		"tausik/gates.json": cfg, "src/app.py": "print('app')\n", "src/auth/login.py": "print('login')\n", "README.md": "# x\n",
	})
	p := &flowProject{root: root, db: filepath.Join(root, config.StateDir, "tausik.db"), clock: &testClock{t: time.Now().UTC()}}
	// The state directory as the application layer makes it (with the
	// .gitignore that keeps the database out of the judged files).
	if err := os.MkdirAll(filepath.Dir(p.db), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(p.db), ".gitignore"), []byte("*\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), p.db)
	if err != nil {
		t.Fatal(err)
	}
	p.st = st
	p.e, err = engine.New(context.Background(), engine.Deps{
		Root: root, Builtin: builtinSubset(t, "filesize", "verify_first", "session_capacity", "session_overtime"),
		Runners: stdrunners.New(st), Config: config.Paths{Project: filepath.Join(root, "tausik", "gates.json")},
		Log: engine.StoreLog{Store: st}, Store: st, Requester: "test",
	}, engine.WithClock(p.clock.Now))
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { p.e.Close() })
	return p
}

func (p *flowProject) initKey(t *testing.T) {
	t.Helper()
	if _, err := receipt.InitKey(receipt.KeyDir(p.root), false); err != nil {
		t.Fatal(err)
	}
}

func (p *flowProject) start(t *testing.T, task store.Task) *Outcome {
	t.Helper()
	if task.Goal == "" {
		task.Goal = "goal of " + task.Slug
	}
	out, err := Start(context.Background(), p.e, StartRequest{Task: task})
	if err != nil {
		t.Fatalf("start %s: %v", task.Slug, err)
	}
	return out
}

func (p *flowProject) done(t *testing.T, slug string) *Outcome {
	t.Helper()
	out, err := Done(context.Background(), p.e, DoneRequest{Slug: slug})
	if err != nil {
		t.Fatalf("done %s: %v", slug, err)
	}
	return out
}

func (p *flowProject) verify(t *testing.T, slug string, files ...string) *VerifyOutcome {
	t.Helper()
	out, err := Verify(context.Background(), p.e, VerifyRequest{Task: slug, Files: files})
	if err != nil {
		t.Fatalf("verify %s: %v", slug, err)
	}
	return out
}

// violations lists the rules of a gate's violations in a decision.
func violations(d *engine.Decision, gate string) string {
	var rules []string
	for _, v := range d.Gates {
		if v.Name == gate {
			for _, vi := range v.Violations {
				rules = append(rules, vi.Rule)
			}
			rules = append(rules, v.Outcome)
		}
	}
	return strings.Join(rules, ",")
}

func TestFlowVerifyThenDone(t *testing.T) {
	p := newFlowProject(t, "")
	p.initKey(t)
	p.start(t, store.Task{Slug: "feat", Files: []string{"src/app.py", filepath.Join(p.root, "README.md"), "./src/app.py"}})
	task, err := p.st.GetTask(context.Background(), "feat")
	if err != nil || strings.Join(task.Files, ",") != "README.md,src/app.py" {
		t.Fatalf("declared files are stored repo-relative, sorted, once: %v %v", task.Files, err)
	}

	out := p.done(t, "feat")
	if !out.Blocked || violations(out.Decision, "verify_first") != "no_verify_run,FAILED" {
		t.Fatalf("close without verify: blocked=%v %s", out.Blocked, violations(out.Decision, "verify_first"))
	}
	if got := out.Decision.Request.ChangedSince; got != task.StartedAt.UTC().Format(time.RFC3339Nano) {
		t.Fatalf("changed_since %q, want the task's start", got)
	}
	if strings.Join(out.Decision.Request.Files, ",") != "README.md,src/app.py" {
		t.Fatalf("task-done must judge the declared files, got %v", out.Decision.Request.Files)
	}
	if tk, _ := p.st.GetTask(context.Background(), "feat"); tk.Status != store.TaskActive {
		t.Fatalf("a blocked close changed the task: %s", tk.Status)
	}

	p.clock.Advance(time.Second)
	v := p.verify(t, "feat")
	if !v.Run.Passed || !v.Declared || len(v.Run.Receipt) == 0 || v.Run.RanAt != v.Decision.Time.Truncate(time.Second) {
		t.Fatalf("verify run: %+v", v.Run)
	}
	if r, err := receipt.Parse(v.Run.Receipt); err != nil || r.Task != "feat" || len(r.Gates) != 1 || r.Gates[0].Name != "filesize" {
		t.Fatalf("receipt: %+v %v", r, err)
	}
	p.clock.Advance(30 * time.Second)
	out = p.done(t, "feat")
	if out.Blocked || out.Task.Status != store.TaskDone {
		t.Fatalf("close after verify: blocked=%v status=%s %s", out.Blocked, out.Task.Status, violations(out.Decision, "verify_first"))
	}
	if _, err := Done(context.Background(), p.e, DoneRequest{Slug: "feat"}); !errors.Is(err, diag.ErrUsage) {
		t.Fatalf("closing twice: %v", err)
	}
	// Every evaluation was logged, and the chain holds: four decisions and
	// the task's start and done states.
	rep, err := p.st.VerifyChain(context.Background())
	if err != nil || !rep.OK || rep.Rows != 6 {
		t.Fatalf("chain: %+v %v", rep, err)
	}
}

func TestFlowDoneRefusals(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string
		act   func(t *testing.T, p *flowProject)
		rule  string
	}{
		{"edit after verify", []string{"src/app.py"}, func(t *testing.T, p *flowProject) {
			p.verify(t, "feat")
			writeFiles(t, p.root, map[string]string{"src/app.py": "print('edited')\n"})
		}, "files_changed"},
		{"verify of other files", []string{"src/app.py"}, func(t *testing.T, p *flowProject) {
			if v := p.verify(t, "feat", "README.md"); v.Declared {
				t.Fatal("README.md is not the declared file")
			}
		}, "files_changed"},
		{"stale", []string{"src/app.py"}, func(t *testing.T, p *flowProject) {
			p.verify(t, "feat")
			p.clock.Advance(601 * time.Second)
		}, "verify_stale"},
		{"sensitive from an earlier verify", []string{"src/app.py", "src/auth/login.py"}, func(t *testing.T, p *flowProject) {
			p.verify(t, "feat")
			p.clock.Advance(2 * time.Minute)
		}, "sensitive_not_fresh"},
		{"failed verify", []string{"src/app.py"}, func(t *testing.T, p *flowProject) {
			writeFiles(t, p.root, map[string]string{"src/app.py": strings.Repeat("x\n", 501)})
			if v := p.verify(t, "feat"); v.Run.Passed || !v.Decision.Blocked {
				t.Fatalf("an over-long file must fail verify: %+v", v.Run)
			}
		}, "verify_failed"},
		{"tampered receipt", []string{"src/app.py"}, func(t *testing.T, p *flowProject) {
			p.verify(t, "feat")
			db, err := sql.Open("sqlite", p.db)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(`UPDATE verify_runs SET receipt = replace(receipt, '"passed":true', '"passed":false')`); err != nil {
				t.Fatal(err)
			}
		}, "receipt_invalid"},
		{"no declared files", nil, func(t *testing.T, p *flowProject) {
			if _, err := Verify(context.Background(), p.e, VerifyRequest{Task: "feat"}); !errors.Is(err, diag.ErrUsage) {
				t.Fatalf("verify without files: %v", err)
			}
		}, "no_declared_files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newFlowProject(t, "")
			p.initKey(t)
			p.start(t, store.Task{Slug: "feat", Files: tc.files})
			tc.act(t, p)
			out := p.done(t, "feat")
			if got := violations(out.Decision, "verify_first"); !out.Blocked || !strings.Contains(got, tc.rule) {
				t.Fatalf("verify_first: %s, want %s", got, tc.rule)
			}
			if tk, _ := p.st.GetTask(context.Background(), "feat"); tk.Status != store.TaskActive {
				t.Fatalf("a blocked close changed the task: %s", tk.Status)
			}
		})
	}
}

func TestFlowSensitiveFreshVerifyCloses(t *testing.T) {
	p := newFlowProject(t, "")
	p.initKey(t)
	p.start(t, store.Task{Slug: "feat", Files: []string{"src/auth/login.py"}})
	p.verify(t, "feat")
	p.clock.Advance(20 * time.Second)
	if out := p.done(t, "feat"); out.Blocked {
		t.Fatalf("fresh verify of a sensitive file: %s", violations(out.Decision, "verify_first"))
	}
}

func TestFlowNoVerifyGatesCloses(t *testing.T) {
	p := newFlowProject(t, `{}`)
	p.start(t, store.Task{Slug: "feat"})
	out := p.done(t, "feat")
	if out.Blocked || out.Task.Status != store.TaskDone || violations(out.Decision, "verify_first") != "PASSED" {
		t.Fatalf("no verify gates: %s", violations(out.Decision, "verify_first"))
	}
}

func TestFlowVerifyNeedsKey(t *testing.T) {
	p := newFlowProject(t, "")
	p.start(t, store.Task{Slug: "feat", Files: []string{"src/app.py"}})
	_, err := Verify(context.Background(), p.e, VerifyRequest{Task: "feat"})
	if !errors.Is(err, diag.ErrNoKey) || !strings.Contains(err.Error(), "tausik key init") {
		t.Fatalf("verify without a key: %v", err)
	}
	if runs, _ := p.st.VerifyRuns(context.Background(), "feat"); len(runs) != 0 {
		t.Fatalf("a run was recorded without a key: %v", runs)
	}
}

func TestFlowBypassIsRecorded(t *testing.T) {
	p := newFlowProject(t, `{}`)
	p.start(t, store.Task{Slug: "feat"})
	out, err := Done(context.Background(), p.e, DoneRequest{Slug: "feat", Bypass: []string{"changelog"}})
	if err != nil {
		t.Fatal(err)
	}
	entry, err := p.st.GetDecision(context.Background(), out.Decision.ID)
	if err != nil || !strings.Contains(string(entry.Body), `"bypass":["changelog"]`) {
		t.Fatalf("logged decision lacks the bypass: %s %v", entry.Body, err)
	}
}
