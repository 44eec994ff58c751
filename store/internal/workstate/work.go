// Package workstate is the store's work state: tasks and the states the log
// records of them, sessions and their tool calls and handoffs, verify runs,
// the work tree recorded at task start, and push tickets. Every change of
// a task or a ticket appends its entry to the decision log in the same
// transaction (decisionlog.AppendRecord), so the log vouches for the rows
// (VerifyTasks, CheckActiveTasks).
package workstate

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/tausik/tausik/store/internal/decisionlog"
	"github.com/tausik/tausik/store/internal/sqldb"
)

// Work is the work state of an open database.
type Work struct {
	db *sqldb.DB
}

// New returns the work state of db.
func New(db *sqldb.DB) *Work { return &Work{db: db} }

// Backfills are the work state's Go steps of the schema's migrations.
func Backfills() map[int]sqldb.Backfill {
	return map[int]sqldb.Backfill{5: backfillTaskStates}
}

// Tx is a write transaction handed to WithTx. Everything written through it
// becomes visible atomically on commit or disappears on rollback, which is how
// a blocked `task start` leaves no task behind. A Tx holds the database write
// lock: keep the work inside short (no runners, no subprocesses), and do not
// call the Store itself from inside fn — use the Tx's methods.
type Tx struct {
	q     sqldb.Querier
	clock func() time.Time
}

// WithTx runs fn in one write transaction. If fn returns an error (for
// example a sentinel meaning "a gate blocked this"), everything written
// through the Tx is rolled back and fn's error is returned unchanged (a panic
// in fn also rolls back, then keeps unwinding); otherwise the transaction
// commits. A decision about a blocked attempt
// should be appended after WithTx returns, through the Store, so the refusal
// is logged even though its effects were rolled back.
func (s *Work) WithTx(ctx context.Context, fn func(tx *Tx) error) error {
	sqlTx, err := s.db.Begin(ctx, s.db.Dialect.WriteLock)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	done := false
	defer func() {
		if !done {
			sqlTx.Rollback()
		}
	}()
	if err := fn(&Tx{q: s.db.On(sqlTx), clock: s.db.Clock}); err != nil {
		done = true
		if rbErr := sqlTx.Rollback(); rbErr != nil && !errors.Is(rbErr, sql.ErrTxDone) {
			return errors.Join(err, fmt.Errorf("rollback: %w", rbErr))
		}
		return err
	}
	done = true
	if err := sqlTx.Commit(); err != nil {
		return sqldb.Classify(fmt.Errorf("commit: %w", err))
	}
	return nil
}

// AppendDecision appends d inside the transaction; it becomes part of the log
// only if the transaction commits.
func (tx *Tx) AppendDecision(ctx context.Context, d decisionlog.Decision) (decisionlog.Appended, error) {
	return decisionlog.AppendIn(ctx, tx.q, tx.clock, d)
}
