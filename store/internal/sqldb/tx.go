package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"time"
)

// Querier is what every statement helper needs; *sql.DB, *sql.Conn, *sql.Tx
// and Conn all satisfy it, so one helper serves a pool and a transaction.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// busyRetries bounds the retry loop that runs after SQLite's own busy timeout
// has expired; with the default timeout that is over half a minute of waiting
// before a write gives up.
const busyRetries = 8

// Begin starts a write transaction (BEGIN IMMEDIATE, via the DSN's _txlock,
// or the dialect's write lock), retrying with jittered backoff while another
// writer holds the lock.
func (db *DB) Begin(ctx context.Context, lock string) (*sql.Tx, error) {
	db.stmts.flush(ctx)
	for attempt := 0; ; attempt++ {
		tx, err := db.SQL.BeginTx(ctx, nil)
		if err == nil && lock != "" {
			if _, err = tx.ExecContext(ctx, lock); err != nil {
				tx.Rollback()
			}
		}
		if err == nil {
			return tx, nil
		}
		if !IsBusy(err) || attempt >= busyRetries {
			return nil, Classify(err)
		}
		if err := backoff(ctx, attempt); err != nil {
			return nil, err
		}
	}
}

// Write runs fn in one write transaction. fn must only touch the database:
// when SQLite reports the database busy mid-transaction the whole transaction
// is rolled back and fn runs again.
func (db *DB) Write(ctx context.Context, fn func(q Querier) error) error {
	return db.writeLocked(ctx, db.Dialect.WriteLock, fn)
}

// writeLocked is Write with lock as the dialect's write lock.
func (db *DB) writeLocked(ctx context.Context, lock string, fn func(q Querier) error) error {
	for attempt := 0; ; attempt++ {
		err := db.writeOnce(ctx, lock, fn)
		if err == nil || !IsBusy(err) || attempt >= busyRetries {
			return Classify(err)
		}
		if err := backoff(ctx, attempt); err != nil {
			return err
		}
	}
}

func (db *DB) writeOnce(ctx context.Context, lock string, fn func(q Querier) error) error {
	tx, err := db.Begin(ctx, lock)
	if err != nil {
		return err
	}
	if err := fn(db.On(tx)); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Read runs fn in one read transaction so that it sees a single snapshot even
// while other processes append (the chain check compares rows with the chain
// head).
func (db *DB) Read(ctx context.Context, fn func(q Querier) error) error {
	db.stmts.flush(ctx)
	tx, err := db.SQL.BeginTx(ctx, db.Dialect.ReadTx)
	if err != nil {
		return Classify(err)
	}
	defer tx.Rollback()
	if err := fn(db.On(tx)); err != nil {
		return Classify(err)
	}
	return nil
}

// Conn returns the pool speaking the dialect, for statements outside a
// transaction.
func (db *DB) Conn() Querier { return db.On(db.SQL) }

// On returns q (the pool or one of its transactions) speaking the dialect,
// with the database's prepared hot statements.
func (db *DB) On(q Querier) Conn { return Conn{Q: q, D: db.Dialect, stmts: db.stmts} }

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

// IsNoRows reports whether err is database/sql's "no rows".
func IsNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// BoolInt is b as the 0 or 1 an integer column holds.
func BoolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
