package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func budget(n int) *int { return &n }

func mkTask(slug string) Task {
	return Task{Slug: slug, Goal: "do " + slug, Tier: TierStandard, Complexity: ComplexitySimple}
}

var _ = contract("tasks_create_get_list", func(t *testing.T, open opener) {
	ctx := context.Background()
	clock := newClock()
	s := open(t, WithClock(clock.Now))
	in := Task{Slug: "fix-login.v2", Goal: "fix it", Scope: []string{"auth/", "*.go"}, Tier: TierDeep,
		Complexity: ComplexityComplex, Delegated: true, CallBudget: budget(40), Specs: []string{"spec-a"},
		Adapts: []string{"ad-1"}, Files: []string{"auth/login.go"}}
	got, err := s.CreateTask(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != TaskActive || !got.StartedAt.Equal(clock.Now()) || !got.DoneAt.IsZero() ||
		*got.CallBudget != 40 || !got.Delegated || strings.Join(got.Scope, ",") != "auth/,*.go" ||
		got.Specs[0] != "spec-a" || got.Adapts[0] != "ad-1" || got.Files[0] != "auth/login.go" || got.Tier != TierDeep {
		t.Fatalf("stored task %+v", got)
	}
	if _, err := s.CreateTask(ctx, in); !errors.Is(err, ErrTaskExists) {
		t.Fatalf("duplicate: %v", err)
	}

	// Scope: nil (undeclared) and empty (declared, allows nothing) survive the round trip.
	clock.Advance(time.Minute)
	none, err := s.CreateTask(ctx, mkTask("no-scope"))
	if err != nil || none.Scope != nil || none.CallBudget != nil {
		t.Fatalf("undeclared scope: %+v %v", none, err)
	}
	clock.Advance(time.Minute)
	empty := mkTask("empty-scope")
	empty.Scope = []string{}
	e, err := s.CreateTask(ctx, empty)
	if err != nil || e.Scope == nil || len(e.Scope) != 0 || e.Files == nil {
		t.Fatalf("declared empty scope: %+v %v", e, err)
	}

	if _, err := s.GetTask(ctx, "missing"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing: %v", err)
	}
	all, err := s.ListTasks(ctx, "")
	if err != nil || len(all) != 3 || all[0].Slug != "fix-login.v2" || all[2].Slug != "empty-scope" {
		t.Fatalf("list: %v %v", all, err)
	}
	if _, err := s.MarkTaskDone(ctx, "no-scope"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AbandonTask(ctx, "empty-scope"); err != nil {
		t.Fatal(err)
	}
	active, err := s.ActiveTasks(ctx)
	if err != nil || len(active) != 1 || active[0].Slug != "fix-login.v2" {
		t.Fatalf("active: %v %v", active, err)
	}
	done, err := s.ListTasks(ctx, TaskDone)
	if err != nil || len(done) != 1 || done[0].DoneAt.IsZero() {
		t.Fatalf("done: %v %v", done, err)
	}
	if _, err := s.MarkTaskDone(ctx, "no-scope"); !errors.Is(err, ErrTaskNotActive) {
		t.Fatalf("done twice: %v", err)
	}
	if _, err := s.MarkTaskDone(ctx, "missing"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("done missing: %v", err)
	}
	if _, err := s.ListTasks(ctx, "paused"); !errors.Is(err, ErrInvalidTask) {
		t.Fatalf("bad status filter: %v", err)
	}
})

var _ = contract("tasks_validation", func(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t)
	bad := map[string]func(*Task){
		"empty slug":      func(x *Task) { x.Slug = "" },
		"upper slug":      func(x *Task) { x.Slug = "Fix" },
		"leading dash":    func(x *Task) { x.Slug = "-x" },
		"slash":           func(x *Task) { x.Slug = "a/b" },
		"too long":        func(x *Task) { x.Slug = strings.Repeat("a", 65) },
		"tier":            func(x *Task) { x.Tier = "huge" },
		"empty tier":      func(x *Task) { x.Tier = "" },
		"complexity":      func(x *Task) { x.Complexity = "hard" },
		"negative budget": func(x *Task) { x.CallBudget = budget(-1) },
		"empty scope":     func(x *Task) { x.Scope = []string{""} },
		"newline file":    func(x *Task) { x.Files = []string{"a\nb"} },
	}
	for name, mutate := range bad {
		x := mkTask("ok")
		mutate(&x)
		if _, err := s.CreateTask(ctx, x); !errors.Is(err, ErrInvalidTask) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if _, err := s.CreateTask(ctx, mkTask(strings.Repeat("a", 64))); err != nil {
		t.Fatalf("64-char slug: %v", err)
	}
})

var _ = contract("tasks_update", func(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t)
	if _, err := s.CreateTask(ctx, mkTask("t")); err != nil {
		t.Fatal(err)
	}
	got, err := s.UpdateTask(ctx, "t", func(x *Task) error {
		x.Scope = append(x.Scope, "src/")
		x.Files = append(x.Files, "src/a.go")
		x.CallBudget = budget(5)
		return nil
	})
	if err != nil || len(got.Scope) != 1 || got.Files[0] != "src/a.go" || *got.CallBudget != 5 {
		t.Fatalf("update: %+v %v", got, err)
	}
	if _, err := s.UpdateTask(ctx, "t", func(x *Task) error { x.Status = TaskDone; return nil }); !errors.Is(err, ErrInvalidTask) {
		t.Fatalf("status edit: %v", err)
	}
	sentinel := errors.New("no")
	if _, err := s.UpdateTask(ctx, "t", func(x *Task) error { x.Goal = "changed"; return sentinel }); !errors.Is(err, sentinel) {
		t.Fatalf("edit error: %v", err)
	}
	if g, _ := s.GetTask(ctx, "t"); g.Goal != "do t" {
		t.Fatalf("failed edit was stored: %q", g.Goal)
	}
})

var errBlocked = errors.New("blocked by gate")

var _ = contract("with_tx_rollback_and_commit", func(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t)
	err := s.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.CreateTask(ctx, mkTask("blocked-start")); err != nil {
			return err
		}
		act, err := tx.ActiveTasks(ctx)
		if err != nil || len(act) != 1 {
			t.Errorf("task not visible inside its transaction: %v %v", act, err)
		}
		return errBlocked
	})
	if !errors.Is(err, errBlocked) {
		t.Fatalf("WithTx returned %v", err)
	}
	if _, err := s.GetTask(ctx, "blocked-start"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("blocked start left a task behind: %v", err)
	}
	// The refusal itself is logged after the rollback.
	mustAppend(t, s, mkDecision(time.Now(), "task-start", "blocked-start", gateSpec{"session_capacity", OutcomeFailed, SeverityBlock}))

	err = s.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.CreateTask(ctx, mkTask("good")); err != nil {
			return err
		}
		if _, err := tx.AppendDecision(ctx, mkDecision(time.Now(), "task-start", "good")); err != nil {
			return err
		}
		if _, err := tx.GetTask(ctx, "good"); err != nil {
			return err
		}
		_, err := tx.SessionStatus(ctx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetTask(ctx, "good"); err != nil {
		t.Fatal(err)
	}
	// The refusal, the task's task-state entry and its start decision.
	if rep := mustVerify(t, s); rep.Rows != 3 {
		t.Fatalf("rows %d", rep.Rows)
	}
	// A decision appended in a rolled-back transaction leaves the chain intact.
	_ = s.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.AppendDecision(ctx, mkDecision(time.Now(), "commit", "")); err != nil {
			t.Error(err)
		}
		return errBlocked
	})
	if rep := mustVerify(t, s); rep.Rows != 3 {
		t.Fatalf("rolled-back append visible: %d rows", rep.Rows)
	}
})

var _ = contract("sessions", func(t *testing.T, open opener) {
	ctx := context.Background()
	clock := newClock()
	s := open(t, WithClock(clock.Now))
	st, err := s.SessionStatus(ctx)
	if err != nil || st.Session != nil || st.Handoff != nil || st.Open {
		t.Fatalf("fresh status: %+v %v", st, err)
	}
	if _, err := s.RecordToolCall(ctx, "Edit"); !errors.Is(err, ErrNoOpenSession) {
		t.Fatalf("call without session: %v", err)
	}
	if _, err := s.EndSession(ctx); !errors.Is(err, ErrNoOpenSession) {
		t.Fatalf("end without session: %v", err)
	}
	if _, err := s.WriteHandoff(ctx, "before any session"); err != nil {
		t.Fatalf("handoff without session: %v", err)
	}
	sess, err := s.StartSession(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartSession(ctx); !errors.Is(err, ErrSessionOpen) {
		t.Fatalf("second start: %v", err)
	}
	// Calls at +1m, +3m, +30m (gap capped at 10m), +31m: active = 1+2+10+1 = 14 min.
	for _, step := range []time.Duration{time.Minute, 2 * time.Minute, 27 * time.Minute, time.Minute} {
		clock.Advance(step)
		if _, err := s.RecordToolCall(ctx, "Edit"); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(time.Hour) // idle time after the last call is not active
	open_, err := s.OpenSession(ctx)
	if err != nil || open_.ID != sess.ID || open_.ToolCalls != 4 {
		t.Fatalf("open session: %+v %v", open_, err)
	}
	st, err = s.SessionStatus(ctx)
	if err != nil || !st.Open || st.Session.ToolCalls != 4 || st.ActiveMinutes() != 14 {
		t.Fatalf("status: %+v (active %v) %v", st, st.Active, err)
	}
	if st.Handoff == nil || st.Handoff.Text != "before any session" || st.Handoff.SessionID != "" {
		t.Fatalf("handoff: %+v", st.Handoff)
	}
	// Writing a handoff never resets counters.
	if h, err := s.WriteHandoff(ctx, "next: tests"); err != nil || h.SessionID != sess.ID {
		t.Fatalf("handoff: %+v %v", h, err)
	}
	if st, _ := s.SessionStatus(ctx); st.Session.ToolCalls != 4 || st.Handoff.Text != "next: tests" {
		t.Fatalf("after handoff: %+v", st)
	}
	ended, err := s.EndSession(ctx)
	if err != nil || ended.Open() || ended.ToolCalls != 4 {
		t.Fatalf("end: %+v %v", ended, err)
	}
	st, err = s.SessionStatus(ctx)
	// The end (an hour after the last call) adds a capped 10-minute gap.
	if err != nil || st.Open || st.Session.ID != sess.ID || st.ActiveMinutes() != 24 {
		t.Fatalf("after end: %+v (active %v) %v", st, st.Active, err)
	}
	if _, err := s.WriteHandoff(ctx, "after the window"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenSession(ctx); !errors.Is(err, ErrNoOpenSession) {
		t.Fatalf("open after end: %v", err)
	}
	next, err := s.StartSession(ctx)
	if err != nil || next.ToolCalls != 0 {
		t.Fatalf("new session: %+v %v", next, err)
	}
})

func TestActiveDuration(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	cases := []struct {
		calls []time.Time
		end   time.Time
		want  time.Duration
	}{
		{nil, time.Time{}, 0},
		{[]time.Time{at(5)}, time.Time{}, 5 * time.Minute},
		{[]time.Time{at(25), at(5)}, time.Time{}, 15 * time.Minute}, // unsorted input; 5 + 10
		{[]time.Time{at(-3), at(2)}, at(4), 4 * time.Minute},        // skew before start counts 0
		{[]time.Time{at(10), at(10)}, at(200), 20 * time.Minute},    // equal stamps; end gap capped
		{[]time.Time{at(1), at(2), at(3)}, at(2), 3 * time.Minute},  // end before last call
		{[]time.Time{at(10)}, at(10).Add(30 * time.Second), 10*time.Minute + 30*time.Second},
	}
	for i, c := range cases {
		if got := ActiveDuration(t0, c.calls, c.end); got != c.want {
			t.Errorf("case %d: %v, want %v", i, got, c.want)
		}
	}
}

var _ = contract("verify_runs", func(t *testing.T, open opener) {
	ctx := context.Background()
	clock := newClock()
	s := open(t, WithClock(clock.Now))
	run := VerifyRun{Task: "t", Gates: []VerifyGateResult{{Name: "pytest", Passed: true, Severity: SeverityBlock}, {Name: "mypy", Passed: false, Severity: SeverityWarn}},
		FilesHash: "sha256:aa", GateSignature: "sha256:bb", ExitCode: 0, Passed: true, GitSHA: "abc",
		Receipt: json.RawMessage(`{"schema":"tausik-receipt/v1"}`), Signature: []byte{1, 2, 3}, KeyFingerprint: "sha256:cc"}
	if _, err := s.RecordVerifyRun(ctx, run); !errors.Is(err, ErrNotFound) {
		t.Fatalf("run for a missing task: %v", err)
	}
	if _, err := s.LatestVerifyRun(ctx, "t"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("latest with none: %v", err)
	}
	if _, err := s.CreateTask(ctx, mkTask("t")); err != nil {
		t.Fatal(err)
	}
	first, err := s.RecordVerifyRun(ctx, run)
	if err != nil || first.ID == 0 || !first.RanAt.Equal(clock.Now()) {
		t.Fatalf("record: %+v %v", first, err)
	}
	clock.Advance(time.Minute)
	second := run
	second.Passed, second.ExitCode, second.Receipt, second.Signature = false, 1, nil, nil
	second.RanAt = clock.Now().Add(-time.Hour) // a skewed clock does not make it "older"
	if _, err := s.RecordVerifyRun(ctx, second); err != nil {
		t.Fatal(err)
	}
	latest, err := s.LatestVerifyRun(ctx, "t")
	if err != nil || latest.Passed || latest.ExitCode != 1 || latest.Receipt != nil || len(latest.Signature) != 0 {
		t.Fatalf("latest: %+v %v", latest, err)
	}
	all, err := s.VerifyRuns(ctx, "t")
	if err != nil || len(all) != 2 || all[0].ID != first.ID {
		t.Fatalf("all: %+v %v", all, err)
	}
	f := all[0]
	if string(f.Receipt) != string(run.Receipt) || string(f.Signature) != "\x01\x02\x03" || f.KeyFingerprint != "sha256:cc" ||
		len(f.Gates) != 2 || f.Gates[1] != run.Gates[1] || f.FilesHash != "sha256:aa" || f.GateSignature != "sha256:bb" || f.GitSHA != "abc" {
		t.Fatalf("round trip: %+v", f)
	}
	for name, mutate := range map[string]func(*VerifyRun){
		"bad task":            func(r *VerifyRun) { r.Task = "Bad" },
		"no files hash":       func(r *VerifyRun) { r.FilesHash = "" },
		"bad severity":        func(r *VerifyRun) { r.Gates = []VerifyGateResult{{Name: "x", Passed: true, Severity: "fatal"}} },
		"receipt not json":    func(r *VerifyRun) { r.Receipt = json.RawMessage("{") },
		"sig without receipt": func(r *VerifyRun) { r.Receipt = nil },
	} {
		r := run
		mutate(&r)
		if _, err := s.RecordVerifyRun(ctx, r); !errors.Is(err, ErrInvalidVerifyRun) {
			t.Errorf("%s: %v", name, err)
		}
	}
})

var _ = contract("fact_cache", func(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t)
	sha := strings.Repeat("ab", 32)
	k := CacheKey{Runner: "python", Version: "1", SHA256: sha}
	if _, hit, err := s.CacheGet(ctx, k); hit || err != nil {
		t.Fatalf("empty cache: %v %v", hit, err)
	}
	if err := s.CachePut(ctx, k, json.RawMessage(`{"classes":3}`)); err != nil {
		t.Fatal(err)
	}
	if v, hit, err := s.CacheGet(ctx, k); !hit || err != nil || string(v) != `{"classes":3}` {
		t.Fatalf("hit: %s %v %v", v, hit, err)
	}
	if _, hit, _ := s.CacheGet(ctx, CacheKey{Runner: "python", Version: "2", SHA256: sha}); hit {
		t.Fatal("served a value from another runner version")
	}
	if _, hit, _ := s.CacheGet(ctx, CacheKey{Runner: "ruff", Version: "1", SHA256: sha}); hit {
		t.Fatal("served a value from another runner")
	}
	// Corrupt row: never trusted.
	if _, err := factCacheDB(s).ExecContext(ctx, "UPDATE fact_cache SET value = '{broken' WHERE runner = 'python'"); err != nil {
		t.Fatal(err)
	}
	if _, hit, err := s.CacheGet(ctx, k); hit || err != nil {
		t.Fatalf("corrupt row served: %v %v", hit, err)
	}
	// A row whose stored version no longer matches its key is a miss too.
	if err := s.CachePut(ctx, k, json.RawMessage(`1`)); err != nil {
		t.Fatal(err)
	}
	if _, err := factCacheDB(s).ExecContext(ctx, "UPDATE fact_cache SET runner_version = '0'"); err != nil {
		t.Fatal(err)
	}
	if _, hit, _ := s.CacheGet(ctx, k); hit {
		t.Fatal("stale-version row served")
	}
	var many []CacheEntry
	var shas []string
	for i := range 1200 {
		h := strings.Repeat("0", 60) + hex4(i)
		shas = append(shas, h)
		many = append(many, CacheEntry{Key: CacheKey{"fs", "3", h}, Value: json.RawMessage(`{"i":` + itoa(i) + `}`)})
	}
	if err := s.CachePutMany(ctx, many); err != nil {
		t.Fatal(err)
	}
	got, err := s.CacheGetMany(ctx, "fs", "3", append(shas, "nothex", strings.Repeat("f", 64)))
	if err != nil || len(got) != 1200 || string(got[shas[1199]]) != `{"i":1199}` {
		t.Fatalf("get many: %d %v", len(got), err)
	}
	bad := append(many[:1:1], CacheEntry{Key: CacheKey{"fs", "3", "XYZ"}, Value: json.RawMessage(`1`)})
	if err := s.CachePutMany(ctx, bad); !errors.Is(err, ErrInvalidCacheEntry) {
		t.Fatalf("bad key: %v", err)
	}
	if err := s.CachePut(ctx, CacheKey{"fs", "3", shas[0]}, json.RawMessage(`{`)); !errors.Is(err, ErrInvalidCacheEntry) {
		t.Fatalf("bad value: %v", err)
	}
})

func hex4(i int) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[i>>12&15], digits[i>>8&15], digits[i>>4&15], digits[i&15]})
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// factCacheDB is the database holding s's fact cache: its own, or the local
// SQLite one of a server-backed store.
func factCacheDB(s *Store) *sql.DB {
	if s.cache != nil {
		return s.cache.db.SQL
	}
	return s.db.SQL
}
