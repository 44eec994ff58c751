package store

import (
	"context"
	"strings"
	"testing"
)

// The query every hook call runs per active task finds the task's last
// task-state entry through an index on both columns, so its time does not
// grow with the number of decisions the task has logged.
func TestLastTaskStateUsesAnIndex(t *testing.T) {
	s := openFile(t)
	rows, err := s.db.SQL.QueryContext(context.Background(),
		"EXPLAIN QUERY PLAN SELECT seq, id, body FROM decisions WHERE task = ? AND trigger = ? ORDER BY seq DESC LIMIT 1", "t", TriggerTaskState)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(plan, "; "); !strings.Contains(got, "task=? AND trigger=?") {
		t.Fatalf("the last task-state entry is found by %q, not an index on task and trigger", got)
	}
}
