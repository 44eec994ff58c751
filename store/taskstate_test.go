package store

import (
	"context"
	"strings"
	"testing"

	"github.com/tausik/tausik/store/internal/sqldb"
	"github.com/tausik/tausik/store/internal/workstate"
)

// taskLog is a log with two tasks: feat started with a scope, widened,
// given files and done; open still active with no scope declared.
func taskLog(t *testing.T, open opener) *Store {
	t.Helper()
	ctx := WithRequester(context.Background(), "cli")
	clock := newClock()
	s := open(t, WithClock(clock.Now))
	seed(t, s, clock, 2)
	feat := mkTask("feat")
	feat.Scope = []string{"src/"}
	budget := 5
	feat.CallBudget = &budget
	if _, err := s.CreateTask(ctx, feat); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UpdateTask(ctx, "feat", func(t *Task) error { t.Scope = append(t.Scope, "docs/"); t.Files = []string{"src/a.go"}; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateTask(ctx, mkTask("open")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.MarkTaskDone(ctx, "feat"); err != nil {
		t.Fatal(err)
	}
	return s
}

// Every task change is a task-state entry, the log with them verifies
// (through the quick pass), and each entry records the requester and the
// resulting state.
var _ = contract("task changes are in the log", func(t *testing.T, open opener) {
	ctx := context.Background()
	s := taskLog(t, open)
	rep := quickOnly(t, s)
	if rep.Size != 6 {
		t.Fatalf("size %d, want 2 decisions and 4 task-state entries", rep.Size)
	}
	if full, err := s.VerifyLog(ctx); err != nil || !full.OK {
		t.Fatalf("VerifyLog: %+v %v", full.Break, err)
	}
	es, err := s.ListDecisions(ctx, Filter{Trigger: TriggerTaskState})
	if err != nil || len(es) != 4 {
		t.Fatalf("entries %d %v", len(es), err)
	}
	for i, want := range []string{`"change":"start"`, `"change":"update"`, `"change":"start"`, `"change":"done"`} {
		if body := string(es[i].Body); !strings.Contains(body, want) || es[i].Requester != "cli" {
			t.Errorf("entry %d (%s): %s", i, es[i].Requester, body)
		}
	}
	if body := string(es[1].Body); !strings.Contains(body, `"scope_paths":["src/","docs/"]`) || !strings.Contains(body, `"files":["src/a.go"]`) ||
		!strings.Contains(body, `"call_budget":5`) {
		t.Errorf("update entry: %s", body)
	}
	if body := string(es[2].Body); !strings.Contains(body, `"scope_paths":null`) {
		t.Errorf("no scope declared is not recorded as null: %s", body)
	}
})

// A task row edited, inserted or deleted by hand (triggers dropped) is a
// break naming the task, on both passes; a done task reopened too.
var _ = contract("task rows are held to the log", func(t *testing.T, open opener) {
	ctx := context.Background()
	for _, c := range []struct {
		name, stmt, want string
	}{
		{"scope widened", `UPDATE tasks SET scope_paths = '["**"]' WHERE slug = 'open'`, "task open: "},
		{"scope of a done task", `UPDATE tasks SET scope_paths = '["**"]' WHERE slug = 'feat'`, "task feat: "},
		{"files", `UPDATE tasks SET files = '[]' WHERE slug = 'feat'`, "task feat: "},
		{"reopened", `UPDATE tasks SET status = 'active', done_at = NULL WHERE slug = 'feat'`, "task feat: "},
		{"delegated", `UPDATE tasks SET delegated = 1 WHERE slug = 'open'`, "task open: "},
		{"budget", `UPDATE tasks SET call_budget = 500 WHERE slug = 'feat'`, "task feat: "},
		{"inserted", `INSERT INTO tasks (slug, goal, scope_paths, tier, complexity, delegated, call_budget, specs, adapts, files, status, started_at, done_at)
			SELECT 'wide', goal, '["**"]', tier, complexity, delegated, call_budget, specs, adapts, files, 'active', started_at, NULL FROM tasks WHERE slug = 'open'`, "task wide is in the tasks table but no log entry records it"},
		{"deleted", `DELETE FROM tasks WHERE slug = 'open'`, "task open is recorded in the log but its row is gone"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := taskLog(t, open)
			tamper(t, s, c.stmt)
			rep, err := s.VerifyLog(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK || rep.Break == nil || rep.Break.Kind != BreakTask || !strings.Contains(rep.Break.String(), c.want) {
				t.Fatalf("VerifyLog: %+v", rep.Break)
			}
		})
	}
})

// A log that predates task-state entries gets one per task from the
// schema version 5 backfill, and then verifies.
var _ = contract("tasks of an older log are recorded", func(t *testing.T, open opener) {
	ctx := context.Background()
	s := taskLog(t, open)
	tamper(t, s, `INSERT INTO tasks (slug, goal, scope_paths, tier, complexity, delegated, call_budget, specs, adapts, files, status, started_at, done_at)
		SELECT 'old', goal, '["lib/"]', tier, complexity, delegated, call_budget, specs, adapts, files, 'active', started_at, NULL FROM tasks WHERE slug = 'open'`)
	if rep, err := s.VerifyLog(ctx); err != nil || rep.OK {
		t.Fatalf("precondition: a task with no entry is a break: %+v %v", rep, err)
	}
	if err := s.db.Write(ctx, func(q sqldb.Querier) error { return workstate.Backfills()[5](ctx, q) }); err != nil {
		t.Fatal(err)
	}
	if rep, err := s.VerifyLog(ctx); err != nil || !rep.OK {
		t.Fatalf("VerifyLog after recording: %+v %v", rep.Break, err)
	}
})
