package workstate

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tausik/tausik/store/internal/sqldb"
)

// CheckActiveTasks holds each of active (the rows just read) to the state
// its latest task-state entry records, and returns the first that differs,
// as VerifyTasks would report it, or nil. It is the check every judgement
// of a write makes before it trusts a scope: a row edited by hand (an SQL
// client, a script an agent ran) is not a scope a person set. One indexed
// read per active task; the log's own integrity is `log verify`'s.
func (s *Work) CheckActiveTasks(ctx context.Context, active []Task) (*ChainBreak, error) {
	var b *ChainBreak
	err := s.read(ctx, func(q querier) error {
		for _, t := range active {
			var seq int64
			var id, body string
			err := q.QueryRowContext(ctx, sqldb.Hot("SELECT seq, id, body FROM decisions WHERE task = ? AND trigger = ? ORDER BY seq DESC LIMIT 1"),
				t.Slug, TriggerTaskState).Scan(&seq, &id, &body)
			if errors.Is(err, sql.ErrNoRows) {
				b = &ChainBreak{Kind: BreakTask, Detail: fmt.Sprintf("task %s is in the tasks table but no log entry records it: it was inserted by hand", t.Slug)}
				return nil
			}
			if err != nil {
				return err
			}
			var rec taskStateBody
			if err := json.Unmarshal([]byte(body), &rec); err != nil || rec.TaskState.Slug != t.Slug {
				b = &ChainBreak{Kind: BreakTask, Seq: seq, ID: id, Detail: fmt.Sprintf("task %s: the entry records no task state", t.Slug)}
				return nil
			}
			if field := stateDiff(stateOf(t), rec.TaskState); field != "" {
				b = &ChainBreak{Kind: BreakTask, Seq: seq, ID: id, Column: field,
					Detail: fmt.Sprintf("task %s: its row differs from the state the log records at seq %d: edited by hand", t.Slug, seq)}
				return nil
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("check active tasks: %w", err)
	}
	return b, nil
}
