// Package store is tausik's persistence layer: one SQLite file per repository
// (.tausik/tausik.db) holding the hash-chained decision log, tasks, sessions,
// verify runs with their signed receipts, and the fact cache — or, opened
// with OpenPostgres, one PostgreSQL schema that a fleet of machines shares,
// with the fact cache left on each machine.
//
// Store is a thin facade over one open database: the decision log
// (store/internal/decisionlog: the chain, the Merkle tree, export and
// verification) and the work state (store/internal/workstate: tasks,
// sessions, verify runs, push tickets) are packages of their own over a
// shared base (store/internal/sqldb: the backends, migrations and
// transactions), and Store hands out both, so its callers see one type.
// The types and sentinels of both are re-exported here under their names.
//
// The store holds transactions, not rules: it validates shapes (enums, slugs,
// JSON) so nothing malformed is ever recorded, and leaves every judgement to
// the engine's gates. Many processes (CI jobs, an MCP server, agent hooks) may
// open the same file at once; every write is one short BEGIN IMMEDIATE
// transaction, so writers queue instead of racing, and readers never block
// them (WAL).
//
// Errors wrap the sentinels in errors.go; the CLI maps them to exit codes.
package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"time"

	"github.com/tausik/tausik/store/internal/decisionlog"
	"github.com/tausik/tausik/store/internal/sqldb"
	"github.com/tausik/tausik/store/internal/workstate"
)

// DefaultBusyTimeout is how long one SQLite call waits for another process's
// write lock before the store's own retry loop takes over. Five seconds
// covers a burst of hook processes; the retry loop covers the rest.
const DefaultBusyTimeout = 5 * time.Second

// Store is an open tausik database. It is safe for concurrent use by many
// goroutines, and many Stores (in many processes) may share one file.
type Store struct {
	*decisionlog.Log
	*workstate.Work
	db    *sqldb.DB
	cache *Store // the machine-local fact cache of a server-backed store; nil: this one
}

// Option tunes Open. Options are applied once; a Store never changes them later.
type Option func(*config)

type config struct {
	clock       func() time.Time
	busyTimeout time.Duration
	readOnly    bool
	factCache   string // OpenPostgres: the local fact cache's file, "" = memory
}

// WithClock sets the clock used for every timestamp the store generates
// (task start and done times, sessions, tool calls, handoffs, cache entries,
// decisions handed in without a time), so tests can pin time.
func WithClock(now func() time.Time) Option {
	return func(c *config) {
		if now != nil {
			c.clock = now
		}
	}
}

// WithBusyTimeout overrides DefaultBusyTimeout; tests use a short one to
// reach the retry path quickly.
func WithBusyTimeout(d time.Duration) Option {
	return func(c *config) {
		if d >= 0 {
			c.busyTimeout = d
		}
	}
}

// WithReadOnly opens an existing database without the right to write, for
// auditors and `tausik log verify`: no file is created, no migration runs, and
// every write fails with ErrReadOnly.
func WithReadOnly() Option {
	return func(c *config) { c.readOnly = true }
}

func newConfig(opts []Option) config {
	c := config{clock: time.Now, busyTimeout: DefaultBusyTimeout}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// base is the configuration of the database below the facade, with the
// migrations' Go steps of the log and the work state.
func (c config) base() sqldb.Config {
	fills := decisionlog.Backfills()
	maps.Copy(fills, workstate.Backfills())
	return sqldb.Config{Clock: c.clock, BusyTimeout: c.busyTimeout, ReadOnly: c.readOnly, Backfills: fills}
}

func newStore(db *sqldb.DB) *Store {
	return &Store{Log: decisionlog.New(db), Work: workstate.New(db), db: db}
}

// Open opens (creating if needed) the database file at path, applies pending
// migrations and returns the store. The parent directory is created with mode
// 0700 and a new file with mode 0600: the log is an audit trail, not a share.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	cfg := newConfig(opts)
	if path == "" {
		return nil, errors.New("open store: empty path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	db, err := sqldb.Open(ctx, abs, cfg.base())
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", abs, err)
	}
	return newStore(db), nil
}

// OpenMemory returns a fresh, private, in-memory store for tests and hermetic
// fixture runs. It uses SQLite's memdb VFS, so the pool's connections all see
// one database with real locking (a write transaction blocks other writers
// exactly as on disk); nothing touches the file system.
func OpenMemory(ctx context.Context, opts ...Option) (*Store, error) {
	cfg := newConfig(opts)
	db, err := sqldb.OpenMemory(ctx, cfg.base())
	if err != nil {
		return nil, fmt.Errorf("open memory store: %w", err)
	}
	return newStore(db), nil
}

// Path returns the absolute database path, ":memory:", or the server's URL
// without its password, for messages.
func (s *Store) Path() string { return s.db.Path }

// Close releases the database (and a server-backed store's local fact
// cache). Further calls fail.
func (s *Store) Close() error {
	if s.cache != nil {
		s.cache.Close()
	}
	return s.db.Close()
}

// VerifyLog checks the whole log (decisionlog's VerifyLog: the chain, the
// tree, every column against its body) in one read snapshot. On an intact
// log the task rows are then held to the states the log records
// (VerifyTasks); a difference is a BreakTask, with Verified left at Size
// since every decision verified.
func (s *Store) VerifyLog(ctx context.Context) (LogReport, error) {
	rep, err := s.Log.VerifyLog(ctx)
	if err != nil || !rep.OK {
		return rep, err
	}
	// An intact log vouches for its task-state entries; the task rows must
	// match them.
	b, err := s.VerifyTasks(ctx)
	if err != nil {
		return LogReport{}, fmt.Errorf("verify log: %w", err)
	}
	if b != nil {
		rep.OK, rep.Break = false, b
	}
	return rep, nil
}

// SchemaVersion reports the schema version this binary reads and writes, for
// `tausik version` and error messages.
func SchemaVersion() int { return sqldb.LatestVersion() }

// NewID returns a new ULID for t: sortable by time, unique across processes
// (80 random bits from crypto/rand) and strictly increasing within this
// process for equal milliseconds, so decision ids never collide in a burst.
func NewID(t time.Time) string { return sqldb.NewID(t) }
