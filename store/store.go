// Package store is tausik's persistence layer: one SQLite file per repository
// (.tausik/tausik.db) holding the hash-chained decision log, tasks, sessions,
// verify runs with their signed receipts, and the fact cache — or, opened
// with OpenPostgres, one PostgreSQL schema that a fleet of machines shares,
// with the fact cache left on each machine (see dialect.go for how one set of
// queries serves both).
//
// The store holds transactions, not rules: it validates shapes (enums, slugs,
// JSON) so nothing malformed is ever recorded, and leaves every judgement to
// the engine's gates. Many processes (CI jobs, an MCP server, agent hooks) may
// open the same file at once; every write is one short BEGIN IMMEDIATE
// transaction, so writers queue instead of racing, and readers never block
// them (WAL).
//
// The decision log is tamper-evident: each row's hash covers its columns, its
// gate verdicts, its body and the previous row's hash (see chainHash), and a
// one-row chain head written in the same transaction witnesses the length, so
// VerifyChain (and VerifyExport, for an NDJSON export with no database) can
// tell an edit from a deletion, an insertion, a reordering or a truncation.
// The log is also a Merkle tree over the bodies (tree.go, store/merkle):
// VerifyLog rebuilds it, and signed checkpoints of its head, kept outside the
// database, catch the rewrites no hash inside the file can.
//
// Errors wrap the sentinels in errors.go; the CLI maps them to exit codes.
package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// DefaultBusyTimeout is how long one SQLite call waits for another process's
// write lock before the store's own retry loop takes over. Five seconds
// covers a burst of hook processes; the retry loop covers the rest.
const DefaultBusyTimeout = 5 * time.Second

// Store is an open tausik database. It is safe for concurrent use by many
// goroutines, and many Stores (in many processes) may share one file.
type Store struct {
	db       *sql.DB
	d        *dialect
	pin      *sql.Conn // keeps an in-memory database alive while the pool recycles connections
	cache    *Store    // the machine-local fact cache of a server-backed store; nil: this one
	clock    func() time.Time
	path     string
	readOnly bool
	uri      string        // a SQLite store's URI filename, for the quick pass's own readers
	busy     time.Duration // its busy timeout
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

// Open opens (creating if needed) the database file at path, applies pending
// migrations and returns the store. The parent directory is created with mode
// 0700 and a new file with mode 0600: the log is an audit trail, not a share.
//
// Pragmas, set on every pooled connection through the DSN: busy_timeout,
// foreign_keys=ON, synchronous=FULL. FULL rather than NORMAL because in WAL
// mode NORMAL may lose the last commits on power loss; a decision the engine
// already reported, or a receipt it already printed, must not silently vanish
// from an audit log. journal_mode=WAL is persistent, so it is set once, after
// the schema version check, leaving a too-new database untouched.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	cfg := newConfig(opts)
	if path == "" {
		return nil, errors.New("open store: empty path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	if cfg.readOnly {
		if _, err := os.Stat(abs); err != nil {
			return nil, fmt.Errorf("open store %s: %w", abs, err)
		}
	} else if err := prepareFile(abs); err != nil {
		return nil, fmt.Errorf("open store %s: %w", abs, err)
	}
	q := []string{
		"_txlock=immediate",
		fmt.Sprintf("_pragma=busy_timeout(%d)", cfg.busyTimeout.Milliseconds()),
		"_pragma=foreign_keys(1)",
		"_pragma=synchronous(FULL)",
	}
	if cfg.readOnly {
		q = append(q, "mode=ro", "_pragma=query_only(1)")
	}
	uri := "file:" + escapeURIPath(abs)
	db, err := sql.Open("sqlite", uri+"?"+strings.Join(q, "&"))
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", abs, err)
	}
	s := &Store{db: db, d: sqliteDialect, clock: cfg.clock, path: abs, readOnly: cfg.readOnly, uri: uri, busy: cfg.busyTimeout}
	if err := s.init(ctx, !cfg.readOnly); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", abs, err)
	}
	return s, nil
}

// OpenMemory returns a fresh, private, in-memory store for tests and hermetic
// fixture runs. It uses SQLite's memdb VFS, so the pool's connections all see
// one database with real locking (a write transaction blocks other writers
// exactly as on disk); nothing touches the file system.
func OpenMemory(ctx context.Context, opts ...Option) (*Store, error) {
	cfg := newConfig(opts)
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("open memory store: %w", err)
	}
	uri := "file:/tausik-" + hex.EncodeToString(b[:]) + "?vfs=memdb"
	dsn := uri + "&_txlock=immediate" +
		fmt.Sprintf("&_pragma=busy_timeout(%d)", cfg.busyTimeout.Milliseconds()) +
		"&_pragma=foreign_keys(1)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open memory store: %w", err)
	}
	pin, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open memory store: %w", err)
	}
	s := &Store{db: db, d: sqliteDialect, pin: pin, clock: cfg.clock, path: ":memory:", uri: uri, busy: cfg.busyTimeout}
	if err := s.init(ctx, false); err != nil {
		s.Close()
		return nil, fmt.Errorf("open memory store: %w", err)
	}
	return s, nil
}

// Path returns the absolute database path, ":memory:", or the server's URL
// without its password, for messages.
func (s *Store) Path() string { return s.path }

// Close releases the database (and a server-backed store's local fact
// cache). Further calls fail.
func (s *Store) Close() error {
	if s.pin != nil {
		s.pin.Close()
	}
	if s.cache != nil {
		s.cache.Close()
	}
	return s.db.Close()
}

// init checks the schema version, switches a writable file to WAL and migrates.
func (s *Store) init(ctx context.Context, wal bool) error {
	v, err := s.d.readVersion(ctx, s.conn())
	if err != nil {
		return classify(fmt.Errorf("read schema version: %w", err))
	}
	latest := latestVersion()
	if v > latest {
		return fmt.Errorf("%w: database is at schema version %d, this binary knows versions up to %d; upgrade tausik",
			ErrSchemaTooNew, v, latest)
	}
	if s.readOnly {
		if v < latest {
			return fmt.Errorf("%w: database is at schema version %d, this binary expects %d", ErrSchemaOutdated, v, latest)
		}
		return nil
	}
	if wal {
		// Switching the journal mode takes no busy timeout: while another
		// process's first open migrates the new file, it is retried.
		var mode string
		for attempt := 0; ; attempt++ {
			err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode)
			if err == nil {
				break
			}
			if !isBusy(err) || attempt == busyRetries {
				return classify(fmt.Errorf("enable wal: %w", err))
			}
			if err := backoff(ctx, attempt); err != nil {
				return err
			}
		}
		if !strings.EqualFold(mode, "wal") {
			return fmt.Errorf("enable wal: journal mode is %q", mode)
		}
	}
	return s.migrate(ctx)
}

// SQLite keeps the schema version in the file header's user_version.
func sqliteReadVersion(ctx context.Context, q querier) (int, error) {
	var v int
	err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}

func sqliteSetVersion(ctx context.Context, q querier, v int) error {
	// PRAGMA takes no bound parameters; the version is an int we own.
	_, err := q.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v))
	return err
}

// prepareFile creates the parent directory (0700) and an empty database file
// (0600) when they do not exist; SQLite gives its -wal and -shm files the
// database file's mode.
func prepareFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// escapeURIPath escapes the characters SQLite's URI parser would take for
// syntax, so any path opens as itself.
func escapeURIPath(p string) string {
	p = filepath.ToSlash(p)
	r := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	return r.Replace(p)
}

// sqliteCode extracts the primary SQLite result code from err, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}

func isBusy(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_BUSY || c == sqlite3.SQLITE_LOCKED || pgBusy(err)
}

// classify wraps SQLite failures that callers must tell apart in the matching
// sentinel, keeping the original error in the chain.
func classify(err error) error {
	if err == nil {
		return nil
	}
	switch sqliteCode(err) {
	case 0:
		return classifyPostgres(err)
	case sqlite3.SQLITE_READONLY:
		if !errors.Is(err, ErrReadOnly) {
			return fmt.Errorf("%w: %w", ErrReadOnly, err)
		}
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		if !errors.Is(err, ErrCorrupt) {
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
	}
	return err
}
