package workstate

import (
	"context"
	"fmt"
)

// A task tree is the work tree's state recorded when a task with a declared
// scope started: opaque text to the store (the engine encodes it), one row
// per task, written once, so what a task changed can be told from what was
// there before it.

// PutTaskTree records state for task inside the transaction, unless one is
// already recorded (the first record stands).
func (tx *Tx) PutTaskTree(ctx context.Context, task, state string) error {
	return putTaskTree(ctx, tx.q, formatTime(tx.clock()), task, state)
}

// PutTaskTree is Tx.PutTaskTree in a transaction of its own.
func (s *Work) PutTaskTree(ctx context.Context, task, state string) error {
	return s.write(ctx, func(q querier) error { return putTaskTree(ctx, q, formatTime(s.clock()), task, state) })
}

func putTaskTree(ctx context.Context, q querier, at, task, state string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO task_trees (task, recorded_at, state) VALUES (?, ?, ?)
		ON CONFLICT (task) DO NOTHING`, task, at, state)
	if err != nil {
		return fmt.Errorf("record tree of task %s: %w", task, classify(err))
	}
	return nil
}

// TaskTree returns the state recorded for task, or ErrNotFound.
func (s *Work) TaskTree(ctx context.Context, task string) (string, error) {
	var state string
	err := s.db.Conn().QueryRowContext(ctx, "SELECT state FROM task_trees WHERE task = ?", task).Scan(&state)
	switch {
	case isNoRows(err):
		return "", fmt.Errorf("tree of task %s: %w", task, ErrNotFound)
	case err != nil:
		return "", fmt.Errorf("tree of task %s: %w", task, classify(err))
	}
	return state, nil
}
