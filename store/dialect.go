package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"sync"
)

// One store, two backends. The store's SQL is written once, in SQLite's
// spelling, and a dialect turns it into the other backend's at the last
// moment: ? placeholders become $1, $2 … and the few fragments the two
// spell differently are swapped whole. Everything else — schema versions,
// the write lock, read snapshots, error codes — is a field of the dialect.
//
// Why not store/sqlite and store/postgres behind an interface: *store.Store
// is used by the engine, every runner and both front ends, and its methods
// are the same transactions on both backends. A second implementation of
// each would be two copies of every query and every invariant, free to
// drift; the dialect keeps one copy, and the contract suite runs it on both.

// dialect is what differs between the backends.
type dialect struct {
	// rebind turns ? placeholders into $n.
	rebind bool
	// fragments are swapped in every statement, SQLite's spelling first.
	fragments []fragment
	// writeLock runs first in every write transaction, so writers queue the
	// way SQLite's BEGIN IMMEDIATE makes them queue; "" when BEGIN does it.
	writeLock string
	// migrationLock runs first in the migration transaction, before any
	// table (the chain head included) may exist.
	migrationLock string
	// readTx is the read transaction: one snapshot for all its statements.
	readTx *sql.TxOptions
	// migrations is the embedded directory of the dialect's schema files.
	migrations string
	// readVersion and setVersion keep the schema version (0: empty database).
	readVersion func(ctx context.Context, q querier) (int, error)
	setVersion  func(ctx context.Context, q querier, v int) error

	mu    sync.Mutex
	cache map[string]string
}

type fragment struct{ sqlite, other string }

var sqliteDialect = &dialect{
	readTx:      &sql.TxOptions{ReadOnly: true},
	migrations:  "migrations",
	readVersion: sqliteReadVersion,
	setVersion:  sqliteSetVersion,
}

// postgresDialect: the head row's lock serialises every write transaction
// (appends first among them) across all processes and machines; seq's
// primary key is the safety net should a writer ever skip the lock.
// REPEATABLE READ gives readers the one snapshot SQLite's read
// transaction gives them.
var postgresDialect = &dialect{
	rebind: true,
	fragments: []fragment{
		{gateMatchSQL, `strpos(d.gates, ?) > 0`},
		{mistypedSQL, mistypedCase(`pg_typeof(d.%s) <> '%s'::regtype`, "text", "bigint")},
	},
	writeLock:     "SELECT count FROM chain_head WHERE id = 1 FOR UPDATE",
	migrationLock: "SELECT pg_advisory_xact_lock(7400361296) -- 'tausik', any constant both sides agree on",
	readTx:        &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead},
	migrations:    "migrations/postgres",
	readVersion:   postgresReadVersion,
	setVersion:    postgresSetVersion,
}

// sql returns query in the dialect's spelling, memoised: the store's
// statements are a fixed set, built from constants.
func (d *dialect) sql(query string) string {
	if !d.rebind && len(d.fragments) == 0 {
		return query
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if q, ok := d.cache[query]; ok {
		return q
	}
	q := query
	for _, f := range d.fragments {
		q = strings.ReplaceAll(q, f.sqlite, f.other)
	}
	if d.rebind {
		q = rebind(q)
	}
	if d.cache == nil {
		d.cache = map[string]string{}
	}
	if len(d.cache) < 4096 { // IN lists of many lengths must not grow it forever
		d.cache[query] = q
	}
	return q
}

// rebind numbers the ? placeholders outside quoted strings, quoted
// identifiers and comments (-- to the end of the line, /* … */): a quote
// inside a comment opens nothing, and a ? there is text.
func rebind(q string) string {
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		var end string // what closes the quoted or commented run starting at i
		switch {
		case c == '\'' || c == '"':
			end = string(c)
		case c == '-' && strings.HasPrefix(q[i:], "--"):
			end = "\n"
		case c == '/' && strings.HasPrefix(q[i:], "/*"):
			end = "*/"
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		default:
			b.WriteByte(c)
			continue
		}
		// Copy the run through its end (or the rest of q, unterminated).
		// A doubled quote inside a string is two runs back to back.
		j := strings.Index(q[i+1:], end)
		if c == '/' || c == '-' {
			j = strings.Index(q[i+2:], end)
			if j >= 0 {
				j++
			}
		}
		if j < 0 {
			b.WriteString(q[i:])
			break
		}
		stop := i + 1 + j + len(end)
		b.WriteString(q[i:stop])
		i = stop - 1
	}
	return b.String()
}

// conn is a querier that speaks the dialect; every statement the store runs
// goes through one.
type conn struct {
	q querier
	d *dialect
}

func (c conn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return c.q.ExecContext(ctx, c.d.sql(query), args...)
}

func (c conn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return c.q.QueryContext(ctx, c.d.sql(query), args...)
}

func (c conn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return c.q.QueryRowContext(ctx, c.d.sql(query), args...)
}

// conn returns the store's pool speaking its dialect, for statements outside
// a transaction.
func (s *Store) conn() querier { return conn{s.db, s.d} }
