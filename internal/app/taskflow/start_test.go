package taskflow

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/store"
)

func budgetOf(n int) *int { return &n }

func TestFlowBlockedStartLeavesNoTask(t *testing.T) {
	p := newFlowProject(t, "")
	out := p.start(t, store.Task{Slug: "budgeted", CallBudget: budgetOf(10)})
	if !out.Blocked || violations(out.Decision, "session_capacity") != "no_open_session,FAILED" {
		t.Fatalf("budget without a session: %s", violations(out.Decision, "session_capacity"))
	}
	if _, err := p.st.GetTask(context.Background(), "budgeted"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a blocked start left a task: %v", err)
	}
	// The refusal itself is in the log, under the task's slug.
	entries, err := p.st.ListDecisions(context.Background(), store.Filter{Task: "budgeted"})
	if err != nil || len(entries) != 1 || !entries[0].Blocked || entries[0].Trigger != engine.TriggerTaskStart {
		t.Fatalf("logged refusal: %+v %v", entries, err)
	}
	// The gates saw the proposed task: facts digest aside, its verdict names it.
	if !strings.Contains(out.Decision.Gates[0].Violations[0].Msg, "task budgeted declares a call budget of 10") {
		t.Fatalf("message: %v", out.Decision.Gates[0].Violations)
	}
	if _, err := p.st.StartSession(context.Background()); err != nil {
		t.Fatal(err)
	}
	if out := p.start(t, store.Task{Slug: "budgeted", CallBudget: budgetOf(10)}); out.Blocked || out.Task.Status != store.TaskActive {
		t.Fatalf("budget inside a session: %s", violations(out.Decision, "session_capacity"))
	}
}

func TestFlowStartRefusals(t *testing.T) {
	p := newFlowProject(t, "")
	p.start(t, store.Task{Slug: "taken"})
	for _, tc := range []struct {
		task store.Task
		want string
	}{
		{store.Task{Slug: "taken"}, "already exists"},
		{store.Task{Slug: "Bad Slug"}, "task slug"},
		{store.Task{Slug: "ok", Tier: "huge"}, "tier"},
		{store.Task{Slug: "ok", Complexity: "easy"}, "complexity"},
		{store.Task{Slug: "ok", CallBudget: budgetOf(-1)}, "negative"},
		{store.Task{Slug: "ok", Files: []string{"../outside.py"}}, "not a file inside the project"},
	} {
		_, err := Start(context.Background(), p.e, StartRequest{Task: tc.task})
		if !errors.Is(err, diag.ErrUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("start %+v: %v, want a usage error about %s", tc.task, err, tc.want)
		}
	}
	if ts, _ := p.st.ListTasks(context.Background(), ""); len(ts) != 1 {
		t.Fatalf("refused starts created tasks: %v", ts)
	}
}

func TestFlowConcurrentDuplicateStart(t *testing.T) {
	p := newFlowProject(t, "")
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			_, errs[i] = Start(context.Background(), p.e, StartRequest{Task: store.Task{Slug: "same", Goal: "race"}})
		})
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, diag.ErrUsage):
			t.Errorf("a losing start must be a usage error, got %v", err)
		}
	}
	ts, _ := p.st.ListTasks(context.Background(), "")
	if ok != 1 || len(ts) != 1 {
		t.Fatalf("%d starts succeeded, %d tasks exist; want exactly one", ok, len(ts))
	}
}

// Two budgets that each fit but not together: however the starts
// interleave, the second is judged against the first.
func TestFlowConcurrentBudgetsDoNotOverbook(t *testing.T) {
	p := newFlowProject(t, "")
	if _, err := p.st.StartSession(context.Background()); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	outs := make([]*Outcome, 2)
	errs := make([]error, 2)
	for i := range 2 {
		wg.Go(func() {
			outs[i], errs[i] = Start(context.Background(), p.e, StartRequest{
				Task: store.Task{Slug: []string{"a", "b"}[i], Goal: "g", CallBudget: budgetOf(120)}})
		})
	}
	wg.Wait()
	started := 0
	for i := range 2 {
		if errs[i] != nil {
			t.Fatalf("start %d: %v", i, errs[i])
		}
		if !outs[i].Blocked {
			started++
		}
	}
	active, _ := p.st.ActiveTasks(context.Background())
	if started != 1 || len(active) != 1 {
		t.Fatalf("%d started, %d active; capacity 200 holds one budget of 120", started, len(active))
	}
}

func TestFlowSessionOvertimeWarns(t *testing.T) {
	p := newFlowProject(t, "")
	clock := &testClock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	st, err := store.Open(context.Background(), p.db, store.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.StartSession(context.Background()); err != nil {
		t.Fatal(err)
	}
	for range 19 { // 19 calls ten minutes apart: 190 active minutes
		clock.Advance(10 * time.Minute)
		if _, err := st.RecordToolCall(context.Background(), "Edit"); err != nil {
			t.Fatal(err)
		}
	}
	out := p.start(t, store.Task{Slug: "late"})
	if out.Blocked || out.Task.Status != store.TaskActive || violations(out.Decision, "session_overtime") != "over_active_time,FAILED" {
		t.Fatalf("over-time session must warn, not block: blocked=%v %s", out.Blocked, violations(out.Decision, "session_overtime"))
	}
}

func TestFlowAddTaskFiles(t *testing.T) {
	p := newFlowProject(t, "")
	p.start(t, store.Task{Slug: "feat", Files: []string{"src/app.py"}})
	tk, err := AddFiles(context.Background(), p.e, "feat", []string{"README.md", "./src/app.py"})
	if err != nil || strings.Join(tk.Files, ",") != "README.md,src/app.py" {
		t.Fatalf("add files: %v %v", tk.Files, err)
	}
	if _, err := AddFiles(context.Background(), p.e, "ghost", []string{"a"}); !errors.Is(err, diag.ErrUsage) {
		t.Fatalf("unknown task: %v", err)
	}
}

// A start whose decision cannot be logged is not trusted: no task, diag.ErrStore,
// and the caller still gets the decision to show.
func TestFlowUnloggedStartCreatesNothing(t *testing.T) {
	p := newFlowProject(t, "")
	db, err := sql.Open("sqlite", p.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("DROP TABLE chain_head"); err != nil {
		t.Fatal(err)
	}
	out, err := Start(context.Background(), p.e, StartRequest{Task: store.Task{Slug: "feat", Goal: "g"}})
	if !errors.Is(err, diag.ErrStore) || out == nil || out.Decision == nil {
		t.Fatalf("unlogged start: %v %+v", err, out)
	}
	if _, err := p.st.GetTask(context.Background(), "feat"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an unlogged start created the task: %v", err)
	}
}
