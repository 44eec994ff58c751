package sqldb

import (
	"context"
	"database/sql"
	"fmt"
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
// Why not store/sqlite and store/postgres behind an interface: the log's
// and the work state's methods are the same transactions on both backends. A second implementation of
// each would be two copies of every query and every invariant, free to
// drift; the dialect keeps one copy, and the contract suite runs it on both.

// Dialect is what differs between the backends.
type Dialect struct {
	// rebind turns ? placeholders into $n.
	rebind bool
	// fragments are swapped in every statement, SQLite's spelling first.
	fragments []fragment
	// WriteLock runs first in every write transaction, so writers queue the
	// way SQLite's BEGIN IMMEDIATE makes them queue; "" when BEGIN does it.
	WriteLock string
	// migrationLock runs first in the migration transaction, before any
	// table (the chain head included) may exist.
	migrationLock string
	// ReadTx is the read transaction: one snapshot for all its statements.
	ReadTx *sql.TxOptions
	// Migrations is the embedded directory of the dialect's schema files.
	Migrations string
	// ReadVersion and SetVersion keep the schema version (0: empty database).
	ReadVersion func(ctx context.Context, q Querier) (int, error)
	SetVersion  func(ctx context.Context, q Querier, v int) error

	mu    sync.Mutex
	cache map[string]string
}

type fragment struct{ sqlite, other string }

// SQLite is the dialect the store's SQL is written in.
var SQLite = &Dialect{
	ReadTx:      &sql.TxOptions{ReadOnly: true},
	Migrations:  "migrations",
	ReadVersion: sqliteReadVersion,
	SetVersion:  sqliteSetVersion,
}

// Postgres: the head row's lock serialises every write transaction
// (appends first among them) across all processes and machines; seq's
// primary key is the safety net should a writer ever skip the lock.
// REPEATABLE READ gives readers the one snapshot SQLite's read
// transaction gives them.
var Postgres = &Dialect{
	rebind: true,
	fragments: []fragment{
		{GateMatchSQL, `strpos(d.gates, ?) > 0`},
		{MistypedSQL, mistypedCase(`pg_typeof(d.%s) <> '%s'::regtype`, "text", "bigint")},
	},
	WriteLock:     "SELECT count FROM chain_head WHERE id = 1 FOR UPDATE",
	migrationLock: "SELECT pg_advisory_xact_lock(7400361296) -- 'tausik', any constant both sides agree on",
	ReadTx:        &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead},
	Migrations:    "migrations/postgres",
	ReadVersion:   postgresReadVersion,
	SetVersion:    postgresSetVersion,
}

// SQL returns query in the dialect's spelling, memoised: the store's
// statements are a fixed set, built from constants.
func (d *Dialect) SQL(query string) string {
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

// Conn is a Querier that speaks the dialect D; every statement the store
// runs goes through one. A Conn from DB.Conn or DB.On also runs the hot
// statements (see Hot) prepared.
type Conn struct {
	Q     Querier
	D     *Dialect
	stmts *stmtCache
}

// ExecContext runs query in D's spelling.
func (c Conn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	q := c.D.SQL(query)
	if s := c.prepared(ctx, query, q); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return c.Q.ExecContext(ctx, q, args...)
}

// QueryContext runs query in D's spelling.
func (c Conn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	q := c.D.SQL(query)
	if s := c.prepared(ctx, query, q); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return c.Q.QueryContext(ctx, q, args...)
}

// QueryRowContext runs query in D's spelling.
func (c Conn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	q := c.D.SQL(query)
	if s := c.prepared(ctx, query, q); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return c.Q.QueryRowContext(ctx, q, args...)
}

// GateMatchSQL finds a gate needle in a decision's gates column (PostgreSQL
// spells instr strpos).
const GateMatchSQL = `instr(d.gates, ?) > 0`

// MistypedSQL names a decision's first column not stored in the type
// append writes it in, or is empty. database/sql would convert a blob or
// a real to the string or integer the log's verifiers compare, where its
// readers refuse it: the verifiers must refuse it too. The PostgreSQL
// dialect asks the columns' types.
var MistypedSQL = mistypedCase(`typeof(d.%s) <> '%s'`, "text", "integer")

// mistypedCase is the CASE expression naming the first column for which
// the test (a format of the column and its type's name) holds.
func mistypedCase(test, text, integer string) string {
	var b strings.Builder
	b.WriteString("CASE")
	for _, c := range [...]struct{ col, typ string }{{"seq", integer}, {"id", text}, {"time", text}, {"trigger", text},
		{"task", text}, {"requester", text}, {"git_head", text}, {"exit_code", integer}, {"blocked", integer},
		{"body", text}, {"prev_hash", text}, {"hash", text}} {
		fmt.Fprintf(&b, " WHEN "+test+" THEN '%s'", c.col, c.typ, c.col)
	}
	b.WriteString(" ELSE '' END")
	return b.String()
}
