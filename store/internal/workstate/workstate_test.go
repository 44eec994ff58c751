package workstate

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/store/internal/decisionlog"
	"github.com/tausik/tausik/store/internal/sqldb"
	"github.com/tausik/tausik/store/internal/storetest"
)

// open is the work state of a new in-memory SQLite database, migrated as
// the store migrates it, on a clock the test moves.
func open(t *testing.T) (*Work, *sqldb.DB, *storetest.Clock) {
	t.Helper()
	clock := storetest.NewClock()
	fills := decisionlog.Backfills()
	maps.Copy(fills, Backfills())
	db, err := sqldb.OpenMemory(context.Background(), sqldb.Config{Clock: clock.Now, BusyTimeout: 5 * time.Second, Backfills: fills})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return New(db), db, clock
}

func task(slug string) Task {
	return Task{Slug: slug, Goal: "g", Tier: TierStandard, Complexity: ComplexitySimple}
}

func TestCreateTaskValidates(t *testing.T) {
	ctx := context.Background()
	w, _, _ := open(t)
	neg := -1
	cases := []struct {
		name string
		edit func(*Task)
	}{
		{"empty slug", func(t *Task) { t.Slug = "" }},
		{"upper-case slug", func(t *Task) { t.Slug = "Fix" }},
		{"slug starting with a dash", func(t *Task) { t.Slug = "-x" }},
		{"slug with a slash", func(t *Task) { t.Slug = "a/b" }},
		{"slug of 65 characters", func(t *Task) { t.Slug = strings.Repeat("a", 65) }},
		{"unknown tier", func(t *Task) { t.Tier = "huge" }},
		{"unknown complexity", func(t *Task) { t.Complexity = "" }},
		{"negative budget", func(t *Task) { t.CallBudget = &neg }},
		{"blank scope entry", func(t *Task) { t.Scope = []string{"src/**", "  "} }},
		{"newline in a file", func(t *Task) { t.Files = []string{"a.py\nb.py"} }},
		{"NUL in a spec", func(t *Task) { t.Specs = []string{"s\x00"} }},
	}
	for _, tc := range cases {
		x := task("ok")
		tc.edit(&x)
		if _, err := w.CreateTask(ctx, x); !errors.Is(err, ErrInvalidTask) {
			t.Errorf("%s: err = %v, want ErrInvalidTask", tc.name, err)
		}
	}
	if tasks, _ := w.ListTasks(ctx, ""); len(tasks) != 0 {
		t.Errorf("invalid tasks were stored: %+v", tasks)
	}
	if !ValidSlug(strings.Repeat("a", 64)) || !ValidSlug("0.fix_it-2") {
		t.Error("a well-formed slug is refused")
	}
}

func TestTaskLifecycle(t *testing.T) {
	ctx := context.Background()
	w, _, clock := open(t)
	budget := 40
	in := task("fix-login")
	in.Scope, in.CallBudget, in.Files, in.Delegated = []string{}, &budget, []string{"a.py"}, true
	got, err := w.CreateTask(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != TaskActive || !got.StartedAt.Equal(clock.Now()) || !got.DoneAt.IsZero() {
		t.Errorf("created = %+v, want active, started now", got)
	}
	if got.Scope == nil || len(got.Scope) != 0 || *got.CallBudget != 40 || !got.Delegated || got.Specs == nil {
		t.Errorf("created = %+v, want a declared empty scope, budget 40, delegated, lists not nil", got)
	}
	if _, err := w.CreateTask(ctx, task("fix-login")); !errors.Is(err, ErrTaskExists) {
		t.Errorf("second create: %v, want ErrTaskExists", err)
	}
	other, _ := w.CreateTask(ctx, task("other"))
	if other.Scope != nil || other.CallBudget != nil {
		t.Errorf("no scope or budget declared: %+v, want nil", other)
	}
	if _, err := w.GetTask(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetTask(nope) = %v, want ErrNotFound", err)
	}

	clock.Advance(time.Hour)
	done, err := w.MarkTaskDone(ctx, "fix-login")
	if err != nil || done.Status != TaskDone || !done.DoneAt.Equal(clock.Now()) {
		t.Fatalf("done = %+v, %v; want done at the clock", done, err)
	}
	for name, f := range map[string]func() error{
		"done again":     func() error { _, err := w.MarkTaskDone(ctx, "fix-login"); return err },
		"abandon a done": func() error { _, err := w.AbandonTask(ctx, "fix-login"); return err },
		"update a done": func() error {
			_, err := w.UpdateTask(ctx, "fix-login", func(t *Task) error { t.Goal = "x"; return nil })
			return err
		},
	} {
		if err := f(); !errors.Is(err, ErrTaskNotActive) {
			t.Errorf("%s: %v, want ErrTaskNotActive", name, err)
		}
	}
	if _, err := w.AbandonTask(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("abandon a missing task: %v, want ErrNotFound", err)
	}
	ab, err := w.AbandonTask(ctx, "other")
	if err != nil || ab.Status != TaskAbandoned {
		t.Errorf("abandoned = %+v, %v", ab, err)
	}
	w.CreateTask(ctx, task("third"))
	active, _ := w.ActiveTasks(ctx)
	all, _ := w.ListTasks(ctx, "")
	doneList, _ := w.ListTasks(ctx, TaskDone)
	slugs := func(ts []Task) (out []string) {
		for _, t := range ts {
			out = append(out, t.Slug)
		}
		slices.Sort(out)
		return out
	}
	if !slices.Equal(slugs(active), []string{"third"}) || !slices.Equal(slugs(all), []string{"fix-login", "other", "third"}) || !slices.Equal(slugs(doneList), []string{"fix-login"}) {
		t.Errorf("active %v, all %v, done %v", slugs(active), slugs(all), slugs(doneList))
	}
}

func TestUpdateTask(t *testing.T) {
	ctx := context.Background()
	w, _, _ := open(t)
	w.CreateTask(ctx, task("t1"))
	up, err := w.UpdateTask(ctx, "t1", func(t *Task) error {
		t.Goal, t.Scope, t.Tier = "new goal", []string{"src/**"}, TierDeep
		return nil
	})
	if err != nil || up.Goal != "new goal" || !slices.Equal(up.Scope, []string{"src/**"}) || up.Tier != TierDeep {
		t.Fatalf("updated = %+v, %v", up, err)
	}
	mine := errors.New("refused by the caller")
	for _, tc := range []struct {
		name string
		edit func(*Task) error
		want error
	}{
		{"the edit's own error", func(*Task) error { return mine }, mine},
		{"the slug", func(t *Task) error { t.Slug = "t2"; return nil }, ErrInvalidTask},
		{"the status", func(t *Task) error { t.Status = TaskDone; return nil }, ErrInvalidTask},
		{"the start", func(t *Task) error { t.StartedAt = t.StartedAt.Add(-time.Hour); return nil }, ErrInvalidTask},
		{"an invalid tier", func(t *Task) error { t.Goal, t.Tier = "lost", "huge"; return nil }, ErrInvalidTask},
	} {
		if _, err := w.UpdateTask(ctx, "t1", tc.edit); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if got, _ := w.GetTask(ctx, "t1"); got.Goal != "new goal" || got.Tier != TierDeep {
		t.Errorf("a refused edit changed the task: %+v", got)
	}
	if _, err := w.UpdateTask(ctx, "nope", func(*Task) error { return nil }); !errors.Is(err, ErrNotFound) {
		t.Errorf("update a missing task: %v, want ErrNotFound", err)
	}
}

// TestTaskStatesVouchForRows: every change appends a task-state entry, and
// a row edited, inserted or deleted by hand is a BreakTask.
func TestTaskStatesVouchForRows(t *testing.T) {
	ctx := context.Background()
	w, db, _ := open(t)
	w.CreateTask(ctx, task("a"))
	w.UpdateTask(ctx, "a", func(t *Task) error { t.Scope = []string{"src/**"}; return nil })
	w.CreateTask(ctx, task("b"))
	w.MarkTaskDone(ctx, "b")
	var n int
	db.SQL.QueryRowContext(ctx, "SELECT count(*) FROM decisions WHERE trigger = ?", TriggerTaskState).Scan(&n)
	if n != 4 {
		t.Errorf("%d task-state entries, want 4 (start, update, start, done)", n)
	}
	if b, err := w.VerifyTasks(ctx); err != nil || b != nil {
		t.Fatalf("VerifyTasks = %+v, %v; want intact", b, err)
	}
	active, _ := w.ActiveTasks(ctx)
	if b, err := w.CheckActiveTasks(ctx, active); err != nil || b != nil {
		t.Fatalf("CheckActiveTasks = %+v, %v; want intact", b, err)
	}
	for _, tc := range []struct {
		name, sql, column, detail string
	}{
		{"scope widened", `UPDATE tasks SET scope_paths = '["**"]' WHERE slug = 'a'`, "scope_paths", "task a: its row differs"},
		{"inserted", `INSERT INTO tasks (slug, goal, scope_paths, tier, complexity, delegated, call_budget, specs, adapts, files, status, started_at)
			VALUES ('ghost', 'g', NULL, 'standard', 'simple', 0, NULL, '[]', '[]', '[]', 'active', '2026-03-01T09:00:00.000Z')`, "", "task ghost is in the tasks table but no log entry records it"},
		{"deleted", `DELETE FROM tasks WHERE slug = 'b'`, "", "task b is recorded in the log but its row is gone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, db, _ := open(t)
			w.CreateTask(ctx, task("a"))
			w.CreateTask(ctx, task("b"))
			w.MarkTaskDone(ctx, "b")
			if _, err := db.SQL.ExecContext(ctx, tc.sql); err != nil {
				t.Fatal(err)
			}
			b, err := w.VerifyTasks(ctx)
			if err != nil || b == nil || b.Kind != BreakTask || b.Column != tc.column || !strings.Contains(b.Detail, tc.detail) {
				t.Errorf("VerifyTasks = %+v, %v; want a %s break at %q saying %q", b, err, BreakTask, tc.column, tc.detail)
			}
			if tc.name == "deleted" {
				return // no active row to check
			}
			active, _ := w.ActiveTasks(ctx)
			if b, err := w.CheckActiveTasks(ctx, active); err != nil || b == nil || !strings.Contains(b.Detail, tc.detail) {
				t.Errorf("CheckActiveTasks = %+v, %v; want %q", b, err, tc.detail)
			}
		})
	}
}

func TestWithTxRollsBack(t *testing.T) {
	ctx := context.Background()
	w, _, _ := open(t)
	blocked := errors.New("a gate blocked it")
	err := w.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.CreateTask(ctx, task("t1")); err != nil {
			return err
		}
		if got, err := tx.GetTask(ctx, "t1"); err != nil || got.Slug != "t1" {
			t.Errorf("inside the transaction: %+v, %v", got, err)
		}
		return blocked
	})
	if err != blocked {
		t.Errorf("WithTx = %v, want the function's error unchanged", err)
	}
	if _, err := w.GetTask(ctx, "t1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("after a rollback: %v, want ErrNotFound", err)
	}
	if err := w.WithTx(ctx, func(tx *Tx) error { _, err := tx.CreateTask(ctx, task("t2")); return err }); err != nil {
		t.Fatal(err)
	}
	if _, err := w.GetTask(ctx, "t2"); err != nil {
		t.Errorf("after a commit: %v", err)
	}
}

func TestTaskTrees(t *testing.T) {
	ctx := context.Background()
	w, _, _ := open(t)
	w.CreateTask(ctx, task("t1"))
	if _, err := w.TaskTree(ctx, "t1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("no tree: %v, want ErrNotFound", err)
	}
	if err := w.PutTaskTree(ctx, "t1", "first"); err != nil {
		t.Fatal(err)
	}
	if err := w.PutTaskTree(ctx, "t1", "second"); err != nil {
		t.Fatal(err)
	}
	if got, err := w.TaskTree(ctx, "t1"); got != "first" || err != nil {
		t.Errorf("TaskTree = %q, %v; want the first record to stand", got, err)
	}
}

func TestActiveDuration(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	at := func(m float64) time.Time { return t0.Add(time.Duration(m * float64(time.Minute))) }
	for _, tc := range []struct {
		name  string
		calls []time.Time
		end   time.Time
		want  time.Duration
	}{
		{"nothing yet", nil, time.Time{}, 0},
		{"calls, open", []time.Time{at(2), at(5)}, time.Time{}, 5 * time.Minute},
		{"calls out of order", []time.Time{at(5), at(2)}, time.Time{}, 5 * time.Minute},
		{"a long pause counts ten minutes", []time.Time{at(1), at(61)}, time.Time{}, 11 * time.Minute},
		{"ended", []time.Time{at(3)}, at(4), 4 * time.Minute},
		{"a call before the start", []time.Time{at(-5), at(2)}, time.Time{}, 2 * time.Minute},
		{"an end before the last call", []time.Time{at(6)}, at(5), 6 * time.Minute},
	} {
		if got := ActiveDuration(t0, tc.calls, tc.end); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSessions(t *testing.T) {
	ctx := context.Background()
	w, _, clock := open(t)
	if st, err := w.SessionStatus(ctx); err != nil || st.Session != nil || st.Open || st.Handoff != nil {
		t.Fatalf("empty: %+v, %v", st, err)
	}
	if _, err := w.RecordToolCall(ctx, "Bash"); !errors.Is(err, ErrNoOpenSession) {
		t.Errorf("a call without a session: %v, want ErrNoOpenSession", err)
	}
	if _, err := w.EndSession(ctx); !errors.Is(err, ErrNoOpenSession) {
		t.Errorf("end without a session: %v, want ErrNoOpenSession", err)
	}
	h0, _ := w.WriteHandoff(ctx, "before any session")
	if h0.SessionID != "" {
		t.Errorf("handoff without a session names %q", h0.SessionID)
	}
	s, err := w.StartSession(ctx)
	if err != nil || !s.Open() || !s.StartedAt.Equal(clock.Now()) {
		t.Fatalf("started %+v, %v", s, err)
	}
	if _, err := w.StartSession(ctx); !errors.Is(err, ErrSessionOpen) {
		t.Errorf("a second start: %v, want ErrSessionOpen", err)
	}
	for i, gap := range []time.Duration{2 * time.Minute, 3 * time.Minute, time.Hour} {
		clock.Advance(gap)
		if n, err := w.RecordToolCall(ctx, "Edit"); err != nil || n != int64(i+1) {
			t.Errorf("call %d: n = %d, %v", i+1, n, err)
		}
	}
	h, _ := w.WriteHandoff(ctx, "next: tests")
	st, err := w.SessionStatus(ctx)
	if err != nil || !st.Open || st.Session.ID != s.ID || st.Session.ToolCalls != 3 || st.ActiveMinutes() != 15 {
		t.Errorf("status = %+v (active %v), %v; want open, 3 calls, 15 active minutes", st, st.Active, err)
	}
	if st.Handoff == nil || st.Handoff.Text != "next: tests" || st.Handoff.SessionID != s.ID || h.SessionID != s.ID {
		t.Errorf("handoff = %+v, want the latest, naming the open session", st.Handoff)
	}
	clock.Advance(time.Minute)
	ended, err := w.EndSession(ctx)
	if err != nil || ended.Open() || ended.ToolCalls != 3 || !ended.EndedAt.Equal(clock.Now()) {
		t.Errorf("ended = %+v, %v", ended, err)
	}
	if _, err := w.OpenSession(ctx); !errors.Is(err, ErrNoOpenSession) {
		t.Errorf("after the end: %v, want ErrNoOpenSession", err)
	}
	st, _ = w.SessionStatus(ctx)
	if st.Open || st.Session == nil || st.Session.ID != s.ID || st.ActiveMinutes() != 16 {
		t.Errorf("after the end: %+v (active %v); want the last session, closed, 16 minutes", st, st.Active)
	}
}

func TestPushTickets(t *testing.T) {
	ctx := WithRequester(context.Background(), "cli")
	w, db, clock := open(t)
	if _, err := w.LatestPushTicket(ctx); !errors.Is(err, ErrNotFound) {
		t.Errorf("no ticket: %v, want ErrNotFound", err)
	}
	if err := w.UsePushTicket(ctx, "x", "d"); !errors.Is(err, ErrTicketGone) {
		t.Errorf("use without a ticket: %v, want ErrTicketGone", err)
	}
	if _, err := w.IssuePushTicket(ctx, "", "origin", "main", ""); err == nil {
		t.Error("a ticket without a commit was issued")
	}
	first, err := w.IssuePushTicket(ctx, "c1", "origin", "main", "git@example.test:r.git")
	if err != nil || first.IssuedBy != "cli" || !first.IssuedAt.Equal(clock.Now()) {
		t.Fatalf("issued %+v, %v", first, err)
	}
	clock.Advance(time.Second)
	second, _ := w.IssuePushTicket(ctx, "c2", "", "", "")
	if err := w.UsePushTicket(ctx, first.ID, "dec1"); !errors.Is(err, ErrTicketGone) {
		t.Errorf("using a replaced ticket: %v, want ErrTicketGone", err)
	}
	if err := w.UsePushTicket(ctx, second.ID, "dec2"); err != nil {
		t.Fatal(err)
	}
	if err := w.UsePushTicket(ctx, second.ID, "dec3"); !errors.Is(err, ErrTicketGone) {
		t.Errorf("using a ticket twice: %v, want ErrTicketGone", err)
	}
	got, err := w.LatestPushTicket(ctx)
	if err != nil || got.ID != second.ID || got.UsedBy != "dec2" || !got.UsedAt.Equal(clock.Now()) || got.Commit != "c2" {
		t.Errorf("latest = %+v, %v; want the second, used by dec2", got, err)
	}
	var n int
	db.SQL.QueryRowContext(ctx, "SELECT count(*) FROM decisions WHERE trigger = ?", TriggerPushTicket).Scan(&n)
	if n != 3 {
		t.Errorf("%d push-ticket entries, want 3 (two issues, one use)", n)
	}
	// A row edited outside tausik allows nothing.
	for _, sql := range []string{
		"UPDATE push_tickets SET used_at = '', used_by = '' WHERE id = '" + second.ID + "'",
		"UPDATE push_tickets SET commit_sha = 'c9' WHERE id = '" + second.ID + "'",
	} {
		w2, db2, _ := open(t)
		tk, _ := w2.IssuePushTicket(ctx, "c2", "origin", "", "")
		w2.UsePushTicket(ctx, tk.ID, "dec")
		if _, err := db2.SQL.ExecContext(ctx, strings.ReplaceAll(sql, second.ID, tk.ID)); err != nil {
			t.Fatal(err)
		}
		if _, err := w2.LatestPushTicket(ctx); !errors.Is(err, ErrTicketTampered) {
			t.Errorf("%s: %v, want ErrTicketTampered", sql, err)
		}
		if err := w2.UsePushTicket(ctx, tk.ID, "again"); err == nil {
			t.Errorf("%s: the tampered ticket was used", sql)
		}
	}
}

func TestVerifyRuns(t *testing.T) {
	ctx := context.Background()
	w, _, clock := open(t)
	w.CreateTask(ctx, task("t1"))
	good := VerifyRun{Task: "t1", FilesHash: "fh", GateSignature: "gs", Passed: true,
		Gates: []VerifyGateResult{{Name: "ruff", Passed: true, Severity: decisionlog.SeverityBlock}}}
	for _, tc := range []struct {
		name string
		edit func(*VerifyRun)
	}{
		{"bad slug", func(r *VerifyRun) { r.Task = "T 1" }},
		{"no files hash", func(r *VerifyRun) { r.FilesHash = "" }},
		{"no gate signature", func(r *VerifyRun) { r.GateSignature = "" }},
		{"a gate without a name", func(r *VerifyRun) { r.Gates = []VerifyGateResult{{Name: " ", Severity: decisionlog.SeverityBlock}} }},
		{"an unknown severity", func(r *VerifyRun) { r.Gates = []VerifyGateResult{{Name: "g", Severity: "loud"}} }},
		{"a receipt that is not JSON", func(r *VerifyRun) { r.Receipt, r.Signature = json.RawMessage("{"), []byte{1} }},
		{"a receipt without a signature", func(r *VerifyRun) { r.Receipt = json.RawMessage(`{}`) }},
		{"a signature without a receipt", func(r *VerifyRun) { r.Signature = []byte{1} }},
	} {
		r := good
		tc.edit(&r)
		if _, err := w.RecordVerifyRun(ctx, r); !errors.Is(err, ErrInvalidVerifyRun) {
			t.Errorf("%s: %v, want ErrInvalidVerifyRun", tc.name, err)
		}
	}
	missing := good
	missing.Task = "nope"
	if _, err := w.RecordVerifyRun(ctx, missing); !errors.Is(err, ErrNotFound) {
		t.Errorf("a run for a missing task: %v, want ErrNotFound", err)
	}
	if _, err := w.LatestVerifyRun(ctx, "t1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("no run yet: %v, want ErrNotFound", err)
	}
	r1, err := w.RecordVerifyRun(ctx, good)
	if err != nil || r1.ID == 0 || !r1.RanAt.Equal(clock.Now()) {
		t.Fatalf("recorded %+v, %v; want an id and RanAt now", r1, err)
	}
	// A later run stamped earlier (a skewed clock) is still the latest.
	second := good
	second.Passed, second.ExitCode, second.RanAt = false, 1, clock.Now().Add(-time.Hour)
	second.Receipt, second.Signature = json.RawMessage(`{"v":1}`), []byte{9, 9}
	r2, _ := w.RecordVerifyRun(ctx, second)
	latest, err := w.LatestVerifyRun(ctx, "t1")
	if err != nil || latest.ID != r2.ID || latest.Passed || latest.ExitCode != 1 || string(latest.Receipt) != `{"v":1}` || !slices.Equal(latest.Signature, []byte{9, 9}) {
		t.Errorf("latest = %+v, %v; want the second run as recorded", latest, err)
	}
	if len(latest.Gates) != 1 || latest.Gates[0] != good.Gates[0] {
		t.Errorf("gates = %+v", latest.Gates)
	}
	all, _ := w.VerifyRuns(ctx, "t1")
	if len(all) != 2 || all[0].ID != r1.ID || all[1].ID != r2.ID {
		t.Errorf("VerifyRuns = %+v, want both, oldest first", all)
	}
}
