// Package sqldb is the store's base, below the decision log and the work
// state: the database handle and its two backends (SQLite, PostgreSQL; see
// dialect.go for how one set of queries serves both), the schema and its
// migrations, the write and read transactions every method runs in, the
// sentinel errors and the ids and time format every row uses.
package sqldb

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

// DB is an open tausik database: the pool and what every statement on it
// needs. It is safe for concurrent use by many goroutines.
type DB struct {
	SQL      *sql.DB
	Dialect  *Dialect
	Clock    func() time.Time
	Path     string        // the absolute file, ":memory:", or the server's URL without its password
	ReadOnly bool          // opened with Config.ReadOnly
	URI      string        // a SQLite database's URI filename, for readers of its own
	Busy     time.Duration // its busy timeout
	pin      *sql.Conn     // keeps an in-memory database alive while the pool recycles connections
	stmts    *stmtCache    // the hot statements, prepared
}

// Backfill is a Go step of a migration (see migrate.go).
type Backfill func(context.Context, Querier) error

// Config is how a database is opened.
type Config struct {
	Clock       func() time.Time
	BusyTimeout time.Duration
	ReadOnly    bool
	// Backfills are the Go steps of the migrations, by version; the layers
	// above the base (the log, the work state) own them.
	Backfills map[int]Backfill
}

// Memory reports whether db is an in-memory database (tests, fixture runs).
func (db *DB) Memory() bool { return db.pin != nil }

// Close releases the database.
func (db *DB) Close() error {
	if db.stmts != nil {
		db.stmts.close()
	}
	if db.pin != nil {
		db.pin.Close()
	}
	return db.SQL.Close()
}

// Open opens (creating if needed) the SQLite file at the absolute path abs
// and applies pending migrations. The parent directory is created with mode
// 0700 and a new file with mode 0600: the log is an audit trail, not a share.
//
// Pragmas, set on every pooled connection through the DSN: busy_timeout,
// foreign_keys=ON, synchronous=FULL. FULL rather than NORMAL because in WAL
// mode NORMAL may lose the last commits on power loss; a decision the engine
// already reported, or a receipt it already printed, must not silently vanish
// from an audit log. journal_mode=WAL is persistent, so it is set once, after
// the schema version check, leaving a too-new database untouched.
func Open(ctx context.Context, abs string, cfg Config) (*DB, error) {
	if cfg.ReadOnly {
		if _, err := os.Stat(abs); err != nil {
			return nil, err
		}
	} else if err := prepareFile(abs); err != nil {
		return nil, err
	}
	q := []string{
		"_txlock=immediate",
		fmt.Sprintf("_pragma=busy_timeout(%d)", cfg.BusyTimeout.Milliseconds()),
		"_pragma=foreign_keys(1)",
		"_pragma=synchronous(FULL)",
	}
	if cfg.ReadOnly {
		q = append(q, "mode=ro", "_pragma=query_only(1)")
	}
	uri := "file:" + escapeURIPath(abs)
	pool, err := sql.Open("sqlite", uri+"?"+strings.Join(q, "&"))
	if err != nil {
		return nil, err
	}
	db := &DB{SQL: pool, Dialect: SQLite, Clock: cfg.Clock, Path: abs, ReadOnly: cfg.ReadOnly, URI: uri, Busy: cfg.BusyTimeout}
	if err := db.init(ctx, !cfg.ReadOnly, cfg.Backfills); err != nil {
		pool.Close()
		return nil, err
	}
	return db, nil
}

// OpenMemory returns a fresh, private, in-memory database. It uses SQLite's
// memdb VFS, so the pool's connections all see one database with real
// locking (a write transaction blocks other writers exactly as on disk);
// nothing touches the file system.
func OpenMemory(ctx context.Context, cfg Config) (*DB, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	uri := "file:/tausik-" + hex.EncodeToString(b[:]) + "?vfs=memdb"
	dsn := uri + "&_txlock=immediate" +
		fmt.Sprintf("&_pragma=busy_timeout(%d)", cfg.BusyTimeout.Milliseconds()) +
		"&_pragma=foreign_keys(1)"
	pool, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	pin, err := pool.Conn(ctx)
	if err != nil {
		pool.Close()
		return nil, err
	}
	db := &DB{SQL: pool, Dialect: SQLite, pin: pin, Clock: cfg.Clock, Path: ":memory:", URI: uri, Busy: cfg.BusyTimeout}
	if err := db.init(ctx, false, cfg.Backfills); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// init checks the schema version, switches a writable file to WAL and migrates.
func (db *DB) init(ctx context.Context, wal bool, fills map[int]Backfill) error {
	db.stmts = newStmtCache(db.SQL)
	v, err := db.Dialect.ReadVersion(ctx, db.Conn())
	if err != nil {
		return Classify(fmt.Errorf("read schema version: %w", err))
	}
	latest := LatestVersion()
	if v > latest {
		return fmt.Errorf("%w: database is at schema version %d, this binary knows versions up to %d; upgrade tausik",
			ErrSchemaTooNew, v, latest)
	}
	if db.ReadOnly {
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
			err := db.SQL.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode)
			if err == nil {
				break
			}
			if !IsBusy(err) || attempt == busyRetries {
				return Classify(fmt.Errorf("enable wal: %w", err))
			}
			if err := backoff(ctx, attempt); err != nil {
				return err
			}
		}
		if !strings.EqualFold(mode, "wal") {
			return fmt.Errorf("enable wal: journal mode is %q", mode)
		}
	}
	return db.migrate(ctx, fills)
}

// SQLite keeps the schema version in the file header's user_version.
func sqliteReadVersion(ctx context.Context, q Querier) (int, error) {
	var v int
	err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}

func sqliteSetVersion(ctx context.Context, q Querier, v int) error {
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

// IsBusy reports whether err is another writer holding the lock (SQLite) or
// a serialization failure (PostgreSQL): a retry resolves it.
func IsBusy(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_BUSY || c == sqlite3.SQLITE_LOCKED || pgBusy(err)
}

// Classify wraps the failures that callers must tell apart in the matching
// sentinel, keeping the original error in the chain.
func Classify(err error) error {
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
