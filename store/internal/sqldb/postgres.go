package sqldb

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// OpenPostgres opens the database on the server pc names (shown is its URL
// without the password, for messages), checks that the server answers and
// applies pending migrations. Errors: ErrUnreachable (no connection:
// refused, timed out, bad password), ErrSchemaTooNew, ErrSchemaOutdated
// (read-only).
func OpenPostgres(ctx context.Context, pc *pgx.ConnConfig, shown string, cfg Config) (*DB, error) {
	if cfg.ReadOnly {
		// The server itself refuses writes (SQLSTATE 25006, ErrReadOnly).
		pc.RuntimeParams["default_transaction_read_only"] = "on"
	}
	pool := stdlib.OpenDB(*pc)
	if err := pool.PingContext(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("%w: %w", ErrUnreachable, err)
	}
	db := &DB{SQL: pool, Dialect: Postgres, Clock: cfg.Clock, Path: shown, ReadOnly: cfg.ReadOnly}
	if err := db.init(ctx, false, cfg.Backfills); err != nil {
		pool.Close()
		return nil, err
	}
	return db, nil
}

// PostgreSQL keeps the schema version in a one-row table of the schema.
// Whether it exists is asked of pg_class with a query, not to_regclass: a
// name lookup that misses is cached by the backend, and the migration, which
// reads the version again after waiting for another process's migration to
// commit, would then still see no table (TestOpenConcurrentFirstOpen).
func postgresReadVersion(ctx context.Context, q Querier) (int, error) {
	var exists bool
	err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c
		JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = current_schema() AND c.relname = 'tausik_schema')`).Scan(&exists)
	if err != nil || !exists {
		return 0, err
	}
	var v int
	err = q.QueryRowContext(ctx, "SELECT version FROM tausik_schema WHERE id = 1").Scan(&v)
	if IsNoRows(err) {
		return 0, nil
	}
	return v, err
}

func postgresSetVersion(ctx context.Context, q Querier, v int) error {
	if _, err := q.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS tausik_schema (
		id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`); err != nil {
		return err
	}
	_, err := q.ExecContext(ctx, `INSERT INTO tausik_schema (id, version) VALUES (1, ?)
		ON CONFLICT (id) DO UPDATE SET version = excluded.version`, v)
	return err
}

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// pgBusy: a serialization failure or deadlock, which a retry resolves.
func pgBusy(err error) bool {
	c := pgCode(err)
	return c == "40001" || c == "40P01"
}

func classifyPostgres(err error) error {
	if pgCode(err) == "25006" && !errors.Is(err, ErrReadOnly) { // read_only_sql_transaction
		return fmt.Errorf("%w: %w", ErrReadOnly, err)
	}
	return err
}
