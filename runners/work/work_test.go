package work

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
	"github.com/tausik/tausik/store/receipt"
)

// fixedClock is a store clock tests move by hand.
type fixedClock struct{ t time.Time }

func (c *fixedClock) Now() time.Time { return c.t }

func openStore(t *testing.T, clock *fixedClock) *store.Store {
	t.Helper()
	st, err := store.OpenMemory(context.Background(), store.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func runner(t *testing.T, st *store.Store, ns string) runners.Runner {
	t.Helper()
	for _, r := range New(st) {
		if r.Namespace() == ns {
			return r
		}
	}
	t.Fatalf("no runner for %s", ns)
	return nil
}

// plain is a namespace as a policy sees it.
func plain(t *testing.T, ns facts.Namespace) map[string]any {
	t.Helper()
	m, err := ns.Generic()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func scope(root, task string) *runners.Scope {
	return runners.NewScope(root, facts.Request{Trigger: "task-done", Task: task, Files: []string{}, Outside: []string{}})
}

func budget(n int) *int { return &n }

func TestTaskFacts(t *testing.T) {
	ctx := context.Background()
	clock := &fixedClock{time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	st := openStore(t, clock)
	declaredEmpty := store.Task{Slug: "empty-scope", Goal: "g", Tier: store.TierStandard, Complexity: store.ComplexitySimple, Scope: []string{}}
	undeclared := store.Task{Slug: "no-scope", Goal: "g", Tier: store.TierDeep, Complexity: store.ComplexityComplex,
		CallBudget: budget(30), Delegated: true, Files: []string{"a.py"}}
	for _, tk := range []store.Task{declaredEmpty, undeclared} {
		if _, err := st.CreateTask(ctx, tk); err != nil {
			t.Fatal(err)
		}
		clock.t = clock.t.Add(time.Minute)
	}
	r := runner(t, st, NamespaceTask)

	got := plain(t, r.Gather(ctx, scope(t.TempDir(), "no-scope")))
	if got["status"] != "ok" || got["found"] != true || got["slug"] != "no-scope" {
		t.Fatalf("task facts: %v", got)
	}
	task := got["task"].(map[string]any)
	if task["scope_paths"] != nil || task["call_budget"] != int64(30) || task["delegated"] != true ||
		task["status"] != "active" || task["started_at"] != "2026-03-01T12:01:00Z" || task["tier"] != "deep" {
		t.Fatalf("task: %v", task)
	}
	active := got["active"].([]any)
	if len(active) != 2 {
		t.Fatalf("active: %v", active)
	}
	// null (not declared) and [] (declared empty) stay apart.
	first := active[0].(map[string]any)
	if sp, ok := first["scope_paths"].([]any); !ok || len(sp) != 0 || first["call_budget"] != nil {
		t.Fatalf("declared-empty scope lost: %v", first)
	}

	got = plain(t, r.Gather(ctx, scope(t.TempDir(), "ghost")))
	if got["status"] != "ok" || got["found"] != false || got["task"] != nil {
		t.Fatalf("unknown task: %v", got)
	}

	s := scope(t.TempDir(), "new-one")
	p := ProposedTask(store.Task{Slug: "new-one", Goal: "g", Tier: store.TierStandard, Complexity: store.ComplexityMedium, CallBudget: budget(5)})
	s.Work.Proposed = &p
	got = plain(t, r.Gather(ctx, s))
	task = got["task"].(map[string]any)
	if got["found"] != true || task["status"] != "proposed" || task["started_at"] != "" || len(got["active"].([]any)) != 2 {
		t.Fatalf("proposed: %v", got)
	}
}

func TestSessionFacts(t *testing.T) {
	ctx := context.Background()
	clock := &fixedClock{time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	st := openStore(t, clock)
	r := runner(t, st, NamespaceSession)
	got := plain(t, r.Gather(ctx, scope(t.TempDir(), "")))
	if got["status"] != "ok" || got["open"] != false || got["id"] != "" || got["handoff"] != nil {
		t.Fatalf("no session yet must be ok and closed: %v", got)
	}
	if _, err := st.WriteHandoff(ctx, "pick up the parser"); err != nil {
		t.Fatal(err)
	}
	sess, err := st.StartSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, gap := range []time.Duration{5 * time.Minute, 4 * time.Minute, time.Hour} {
		clock.t = clock.t.Add(gap)
		if _, err := st.RecordToolCall(ctx, "Edit"); err != nil {
			t.Fatal(err)
		}
	}
	got = plain(t, r.Gather(ctx, scope(t.TempDir(), "")))
	h := got["handoff"].(map[string]any)
	if got["open"] != true || got["id"] != sess.ID || got["tool_calls"] != int64(3) || got["active_minutes"] != int64(19) ||
		h["text"] != "pick up the parser" || h["session_id"] != "" {
		t.Fatalf("open session: %v", got)
	}
}

func TestNoStoreIsAnError(t *testing.T) {
	for _, r := range New(nil) {
		ns := r.Gather(context.Background(), scope(t.TempDir(), "x"))
		if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "no store") {
			t.Errorf("%s without a store: %+v", r.Namespace(), ns)
		}
	}
}

func TestClosedStoreIsAnError(t *testing.T) {
	clock := &fixedClock{time.Now()}
	st := openStore(t, clock)
	rs := New(st)
	st.Close()
	for _, r := range rs {
		if ns := r.Gather(context.Background(), scope(t.TempDir(), "x")); ns.Status != facts.StatusError {
			t.Errorf("%s over a closed store: %+v", r.Namespace(), ns)
		}
	}
}

// verifyFixture is a project with a key, one task declaring two files, and
// the verify runner over it.
type verifyFixture struct {
	root  string
	st    *store.Store
	key   receipt.Key
	clock *fixedClock
	r     runners.Runner
}

func newVerifyFixture(t *testing.T, files ...string) *verifyFixture {
	t.Helper()
	ctx := context.Background()
	f := &verifyFixture{root: t.TempDir(), clock: &fixedClock{time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}}
	f.st = openStore(t, f.clock)
	var err error
	if f.key, err = receipt.InitKey(receipt.KeyDir(f.root), false); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"src/app.py", "src/auth/login.py"} {
		full := filepath.Join(f.root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("print('"+p+"')\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.st.CreateTask(ctx, store.Task{Slug: "feat", Goal: "g", Tier: store.TierStandard,
		Complexity: store.ComplexityMedium, Files: files}); err != nil {
		t.Fatal(err)
	}
	f.r = runner(t, f.st, NamespaceVerify)
	return f
}

func (f *verifyFixture) scope() *runners.Scope {
	s := scope(f.root, "feat")
	s.Work = runners.WorkContext{VerifyGates: []string{"filesize"}, GateSignature: "sha256:gates"}
	return s
}

// record signs a passing run over the task's current files, then lets edit
// change the row before it is stored.
func (f *verifyFixture) record(t *testing.T, edit func(*store.VerifyRun)) {
	t.Helper()
	task, err := f.st.GetTask(context.Background(), "feat")
	if err != nil {
		t.Fatal(err)
	}
	hash, err := receipt.FilesHash(f.root, task.Files)
	if err != nil {
		t.Fatal(err)
	}
	run := store.VerifyRun{Task: "feat", FilesHash: hash, GateSignature: "sha256:gates", Passed: true, RanAt: f.clock.t,
		Gates: []store.VerifyGateResult{{Name: "filesize", Passed: true, Severity: store.SeverityBlock}}}
	payload, sig, err := receipt.Sign(receipt.Receipt{Task: run.Task, Gates: []receipt.Gate{{Name: "filesize", Passed: true, Severity: "block"}},
		Passed: true, RanAt: run.RanAt, FilesHash: hash, GateSignature: run.GateSignature}, f.key)
	if err != nil {
		t.Fatal(err)
	}
	run.Receipt, run.Signature, run.KeyFingerprint = payload, sig, f.key.Fingerprint()
	if edit != nil {
		edit(&run)
	}
	if _, err := f.st.RecordVerifyRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
}

func (f *verifyFixture) gather(t *testing.T) facts.VerifyFacts {
	t.Helper()
	ns := f.r.Gather(context.Background(), f.scope())
	if ns.Status != facts.StatusOK {
		t.Fatalf("verify facts: %s: %s", ns.Status, ns.Reason)
	}
	var out facts.VerifyFacts
	b, _ := json.Marshal(ns.Data)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestVerifyFactsNoRunThenValidRun(t *testing.T) {
	f := newVerifyFixture(t, "./src/app.py", "src/auth/login.py", "src/app.py")
	got := f.gather(t)
	want, _ := receipt.FilesHash(f.root, []string{"src/app.py", "src/auth/login.py"})
	if got.Run != nil || got.FilesHash != want || strings.Join(got.DeclaredFiles, ",") != "src/app.py,src/auth/login.py" ||
		got.GateSignature != "sha256:gates" || strings.Join(got.VerifyGates, ",") != "filesize" {
		t.Fatalf("before any run: %+v", got)
	}
	if len(got.Sensitive) != 1 || got.Sensitive[0] != (facts.SensitiveFile{Path: "src/auth/login.py", Pattern: "auth/"}) {
		t.Fatalf("sensitive: %+v", got.Sensitive)
	}
	f.record(t, nil)
	got = f.gather(t)
	rc := got.Run.Receipt
	if !rc.Valid || !rc.SignatureValid || !rc.TimeMatches || !rc.GatesMatch || rc.Reason != "" ||
		rc.ProjectKey != f.key.Fingerprint() || got.Run.FilesHash != got.FilesHash || got.Run.RanAt != "2026-03-01T12:00:00Z" {
		t.Fatalf("valid run: %+v", got.Run)
	}

	// An edit moves the current hash away from the run's; a touch does not.
	full := filepath.Join(f.root, "src", "app.py")
	if err := os.Chtimes(full, time.Now(), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if f.gather(t).FilesHash != got.Run.FilesHash {
		t.Fatal("a touch changed the files hash")
	}
	if err := os.WriteFile(full, []byte("print('edited')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f.gather(t).FilesHash == got.Run.FilesHash {
		t.Fatal("an edit kept the files hash")
	}
}

func TestVerifyFactsReceiptChecks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   func(*store.VerifyRun)
		check  func(facts.ReceiptCheck) bool
		reason string
	}{
		{"tampered bytes", func(r *store.VerifyRun) {
			r.Receipt = []byte(strings.Replace(string(r.Receipt), `"passed":true`, `"passed":false`, 1))
		}, func(c facts.ReceiptCheck) bool { return c.Present && !c.SignatureValid }, "signature does not verify"},
		{"row time edited", func(r *store.VerifyRun) { r.RanAt = r.RanAt.Add(10 * time.Minute) },
			func(c facts.ReceiptCheck) bool { return c.SignatureValid && !c.TimeMatches && c.TaskMatches }, "is not the run's time"},
		{"row passed edited", func(r *store.VerifyRun) { r.Passed = false },
			func(c facts.ReceiptCheck) bool { return c.SignatureValid && !c.PassedMatches }, "passed=true, the run says passed=false"},
		{"row files hash edited", func(r *store.VerifyRun) { r.FilesHash = "sha256:other" },
			func(c facts.ReceiptCheck) bool { return !c.FilesHashMatches }, "files hash is not the run's"},
		{"row gates edited", func(r *store.VerifyRun) { r.Gates[0].Passed = false },
			func(c facts.ReceiptCheck) bool { return !c.GatesMatch }, "gate results are not the run's"},
		{"unsigned", func(r *store.VerifyRun) { r.Receipt, r.Signature = nil, nil },
			func(c facts.ReceiptCheck) bool { return !c.Present }, "no signed receipt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newVerifyFixture(t, "src/app.py")
			f.record(t, tc.edit)
			rc := f.gather(t).Run.Receipt
			if rc.Valid || !tc.check(rc) || !strings.Contains(rc.Reason, tc.reason) {
				t.Fatalf("receipt check: %+v", rc)
			}
		})
	}
}

func TestVerifyFactsForeignOrMissingKey(t *testing.T) {
	f := newVerifyFixture(t, "src/app.py")
	f.record(t, nil)
	// Another key replaces the project's: the receipt no longer checks.
	if _, err := receipt.InitKey(receipt.KeyDir(f.root), true); err != nil {
		t.Fatal(err)
	}
	if rc := f.gather(t).Run.Receipt; rc.Valid || rc.SignatureValid || !strings.Contains(rc.Reason, "different key") {
		t.Fatalf("foreign key: %+v", rc)
	}
	if err := os.RemoveAll(receipt.KeyDir(f.root)); err != nil {
		t.Fatal(err)
	}
	if rc := f.gather(t).Run.Receipt; rc.Valid || rc.ProjectKey != "" || !strings.Contains(rc.Reason, "no project public key") {
		t.Fatalf("no key: %+v", rc)
	}
}

func TestVerifyFactsUnreadableFileIsAnError(t *testing.T) {
	f := newVerifyFixture(t, "src/auth") // a directory: cannot be hashed as a file
	ns := f.r.Gather(context.Background(), f.scope())
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "is a directory") {
		t.Fatalf("unreadable declared file: %+v", ns)
	}
}

func TestVerifyFactsWithoutTask(t *testing.T) {
	f := newVerifyFixture(t, "src/app.py")
	for _, slug := range []string{"", "ghost"} {
		ns := f.r.Gather(context.Background(), scope(f.root, slug))
		got := plain(t, ns)
		if ns.Status != facts.StatusOK || got["run"] != nil || len(got["declared_files"].([]any)) != 0 {
			t.Fatalf("task %q: %v", slug, got)
		}
	}
}

func TestSensitiveMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"auth/", "src/auth/login.py", true},
		{"auth/", "src/oauth/login.py", false},
		{"auth/", "auth", false}, // a file called auth is not a directory
		{"AUTH/", "Src/Auth/x.go", true},
		{"*.pem", "certs/server.PEM", true},
		{"*.pem", "docs/pem.md", false},
		{"*.key", "monkey.keys.py", false},
		{"secret", "config/client_secret.json", true},
		{".env", "deploy/.env.production", true},
		{".env", "src/environment.py", false},
		{"", "anything", false},
		{"[", "x[", false}, // a malformed glob matches nothing
	} {
		if got := SensitiveMatch(tc.pattern, tc.path); got != tc.want {
			t.Errorf("SensitiveMatch(%q, %q) = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
	got := MatchSensitive([]string{"a/id_rsa", "b.go", "secrets/x"}, SensitivePatterns)
	if len(got) != 2 || got[0].Path != "a/id_rsa" || got[1].Pattern != "secret" {
		t.Fatalf("MatchSensitive: %+v", got)
	}
}
