package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// querier is what every statement helper needs; *sql.DB, *sql.Conn and
// *sql.Tx all satisfy it, so one helper serves the Store and a Tx.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// busyRetries bounds the retry loop that runs after SQLite's own busy timeout
// has expired; with the default timeout that is over half a minute of waiting
// before a write gives up.
const busyRetries = 8

// begin starts a write transaction (BEGIN IMMEDIATE, via the DSN's _txlock,
// or the dialect's write lock), retrying with jittered backoff while another
// writer holds the lock.
func (s *Store) begin(ctx context.Context, lock string) (*sql.Tx, error) {
	for attempt := 0; ; attempt++ {
		tx, err := s.db.BeginTx(ctx, nil)
		if err == nil && lock != "" {
			if _, err = tx.ExecContext(ctx, lock); err != nil {
				tx.Rollback()
			}
		}
		if err == nil {
			return tx, nil
		}
		if !isBusy(err) || attempt >= busyRetries {
			return nil, classify(err)
		}
		if err := backoff(ctx, attempt); err != nil {
			return nil, err
		}
	}
}

// write runs fn in one write transaction. fn must only touch the database:
// when SQLite reports the database busy mid-transaction the whole transaction
// is rolled back and fn runs again.
func (s *Store) write(ctx context.Context, fn func(q querier) error) error {
	return s.writeLocked(ctx, s.d.writeLock, fn)
}

// writeLocked is write with lock as the dialect's write lock.
func (s *Store) writeLocked(ctx context.Context, lock string, fn func(q querier) error) error {
	for attempt := 0; ; attempt++ {
		err := s.writeOnce(ctx, lock, fn)
		if err == nil || !isBusy(err) || attempt >= busyRetries {
			return classify(err)
		}
		if err := backoff(ctx, attempt); err != nil {
			return err
		}
	}
}

func (s *Store) writeOnce(ctx context.Context, lock string, fn func(q querier) error) error {
	tx, err := s.begin(ctx, lock)
	if err != nil {
		return err
	}
	if err := fn(conn{tx, s.d}); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// read runs fn in one read transaction so that it sees a single snapshot even
// while other processes append (VerifyChain compares rows with the chain head).
func (s *Store) read(ctx context.Context, fn func(q querier) error) error {
	tx, err := s.db.BeginTx(ctx, s.d.readTx)
	if err != nil {
		return classify(err)
	}
	defer tx.Rollback()
	if err := fn(conn{tx, s.d}); err != nil {
		return classify(err)
	}
	return nil
}

func backoff(ctx context.Context, attempt int) error {
	d := time.Duration(5<<min(attempt, 7)) * time.Millisecond
	d += time.Duration(rand.Int64N(int64(d)))
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Tx is a write transaction handed to WithTx. Everything written through it
// becomes visible atomically on commit or disappears on rollback, which is how
// a blocked `task start` leaves no task behind. A Tx holds the database write
// lock: keep the work inside short (no runners, no subprocesses), and do not
// call the Store itself from inside fn — use the Tx's methods.
type Tx struct {
	q     querier
	clock func() time.Time
}

// WithTx runs fn in one write transaction. If fn returns an error (for
// example a sentinel meaning "a gate blocked this"), everything written
// through the Tx is rolled back and fn's error is returned unchanged (a panic
// in fn also rolls back, then keeps unwinding); otherwise the transaction
// commits. A decision about a blocked attempt
// should be appended after WithTx returns, through the Store, so the refusal
// is logged even though its effects were rolled back.
func (s *Store) WithTx(ctx context.Context, fn func(tx *Tx) error) error {
	sqlTx, err := s.begin(ctx, s.d.writeLock)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	done := false
	defer func() {
		if !done {
			sqlTx.Rollback()
		}
	}()
	if err := fn(&Tx{q: conn{sqlTx, s.d}, clock: s.clock}); err != nil {
		done = true
		if rbErr := sqlTx.Rollback(); rbErr != nil && !errors.Is(rbErr, sql.ErrTxDone) {
			return errors.Join(err, fmt.Errorf("rollback: %w", rbErr))
		}
		return err
	}
	done = true
	if err := sqlTx.Commit(); err != nil {
		return classify(fmt.Errorf("commit: %w", err))
	}
	return nil
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
