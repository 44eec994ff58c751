package store

import (
	"context"
	"strings"
	"testing"
)

// The active tasks a judgement reads are held to the log: a scope widened,
// a row inserted by hand is reported naming the task; rows as tausik wrote
// them pass.
var _ = contract("active tasks are checked against the log", func(t *testing.T, open opener) {
	ctx := context.Background()
	s := taskLog(t, open)
	active := func() []Task {
		a, err := s.ActiveTasks(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	if b, err := s.CheckActiveTasks(ctx, active()); err != nil || b != nil {
		t.Fatalf("untouched rows: %+v %v", b, err)
	}
	tamper(t, s, `UPDATE tasks SET scope_paths = '["**"]' WHERE slug = 'open'`)
	b, err := s.CheckActiveTasks(ctx, active())
	if err != nil || b == nil || b.Column != "scope_paths" || !strings.Contains(b.Detail, "task open") {
		t.Fatalf("widened scope: %+v %v", b, err)
	}
	tamper(t, s, `UPDATE tasks SET scope_paths = NULL WHERE slug = 'open'`)
	tamper(t, s, `INSERT INTO tasks (slug, goal, scope_paths, tier, complexity, delegated, call_budget, specs, adapts, files, status, started_at, done_at)
		SELECT 'forged', goal, '["**"]', tier, complexity, delegated, call_budget, specs, adapts, files, 'active', started_at, NULL FROM tasks WHERE slug = 'open'`)
	b, err = s.CheckActiveTasks(ctx, active())
	if err != nil || b == nil || !strings.Contains(b.Detail, "task forged") && !strings.Contains(b.Detail, "task open") {
		t.Fatalf("inserted task: %+v %v", b, err)
	}
})
