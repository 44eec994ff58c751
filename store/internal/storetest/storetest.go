// Package storetest is the test support the store's packages share: a
// settable clock, and the PostgreSQL half of their suites, which runs on a
// real server named by TAUSIK_TEST_POSTGRES (testdata/postgres/with-server.sh
// starts a throwaway one and sets it; .ci/run does). Each test gets a schema
// of its own. Only tests import it.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/tausik/tausik/store/internal/sqldb"
)

// genesisHash is the chain head of an empty log.
const genesisHash = "0000000000000000000000000000000000000000000000000000000000000000"

// Clock is a settable clock for the stores' WithClock.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock returns a clock at 2026-03-01 09:00 UTC.
func NewClock() *Clock {
	return &Clock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// MarkAltered records that a test changed the tables of schema (tamper's
// ALTER, CREATE, DROP): emptying its rows would not make it as migrated, so
// it never goes back to the pool.
func MarkAltered(schema string) { altered.Store(schema, true) }

// PostgresEnv names the variable holding the test server's URL.
const PostgresEnv = "TAUSIK_TEST_POSTGRES"

// PostgresURL returns the server's URL. Without one the test fails in CI
// (CI=true: a missing dependency must never pass as a skip) and skips loudly
// elsewhere.
func PostgresURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(PostgresEnv)
	if u != "" {
		return u
	}
	msg := PostgresEnv + " is not set: the PostgreSQL backend is NOT TESTED; " +
		"run the tests under testdata/postgres/with-server.sh (as .ci/run does)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip("SKIPPED: " + msg)
	return ""
}

// NewSchema creates an empty schema on the test server, dropped when
// the test ends, and returns the URL of a connection whose tables live in it.
func NewSchema(t testing.TB) string {
	t.Helper()
	base := PostgresURL(t)
	var b [8]byte
	rand.Read(b[:])
	schema := "tausik_test_" + hex.EncodeToString(b[:])
	admin := AdminDB(t, base)
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	})
	return WithSearchPath(t, base, schema)
}

// AdminDB opens a pool on the server at rawURL, for what a test does past
// the store.
func AdminDB(t testing.TB, rawURL string) *sql.DB {
	t.Helper()
	pc, err := pgx.ParseConfig(rawURL)
	if err != nil {
		t.Fatalf("%s: %v", PostgresEnv, err)
	}
	return stdlib.OpenDB(*pc)
}

// migrated is a pool of migrated schemas: creating and migrating one costs
// half a second of DDL on a busy machine, emptying one a few milliseconds,
// and the contract suite opens hundreds.
var migrated struct {
	sync.Mutex
	free []string // URLs of migrated schemas holding only what migrations write
	all  []string // every schema the pool made, dropped by DropMigrated
	db   *sql.DB
}

// Migrated returns the URL of a migrated schema of the test's own,
// as fresh as a new one: when the test ends, every row it wrote is deleted
// (triggers and foreign keys off, as a superuser may), the chain head is back
// at genesis and the identity counters restart, before another test gets it.
func Migrated(t testing.TB) string {
	t.Helper()
	base := PostgresURL(t)
	migrated.Lock()
	var u string
	if n := len(migrated.free); n > 0 {
		u, migrated.free = migrated.free[n-1], migrated.free[:n-1]
	}
	if migrated.db == nil {
		migrated.db = AdminDB(t, base)
	}
	migrated.Unlock()
	if u == "" {
		u = newPoolSchema(t, base)
	}
	t.Cleanup(func() {
		if _, altered := altered.Load(SchemaOf(t, u)); altered {
			return // not as migrated any more: dropped with the rest at the end
		}
		if err := emptySchema(u); err != nil {
			t.Errorf("empty test schema: %v", err)
			return
		}
		migrated.Lock()
		migrated.free = append(migrated.free, u)
		migrated.Unlock()
	})
	return u
}

// altered holds the schemas a test changed the tables of (tamper's
// ALTER, CREATE, DROP): emptying their rows would not make them as
// migrated, so they never go back to the pool.
var altered sync.Map

// SchemaOf is the schema a Migrated URL searches.
func SchemaOf(t testing.TB, u string) string {
	t.Helper()
	pu, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return pu.Query().Get("search_path")
}

func newPoolSchema(t testing.TB, base string) string {
	t.Helper()
	var b [8]byte
	rand.Read(b[:])
	schema := "tausik_test_" + hex.EncodeToString(b[:])
	if _, err := migrated.db.ExecContext(context.Background(), "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	migrated.Lock()
	migrated.all = append(migrated.all, schema)
	migrated.Unlock()
	u := WithSearchPath(t, base, schema)
	pc, err := pgx.ParseConfig(u)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqldb.OpenPostgres(context.Background(), pc, u, sqldb.Config{Clock: time.Now})
	if err != nil {
		t.Fatalf("migrate test schema: %v", err)
	}
	db.Close()
	return u
}

// emptySchema deletes every row but the schema version's and puts the chain
// head back, so the schema is as its migrations left it.
func emptySchema(u string) error {
	ctx := context.Background()
	pc, err := pgx.ParseConfig(u)
	if err != nil {
		return err
	}
	db := stdlib.OpenDB(*pc)
	defer db.Close()
	c, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	rows, err := c.QueryContext(ctx, `SELECT tablename FROM pg_tables
		WHERE schemaname = current_schema() AND tablename <> 'tausik_schema'`)
	if err != nil {
		return err
	}
	var stmts []string
	for rows.Next() {
		var tbl string
		if err := rows.Scan(&tbl); err != nil {
			rows.Close()
			return err
		}
		stmts = append(stmts, "DELETE FROM "+tbl)
	}
	rows.Close()
	stmts = append(stmts,
		"INSERT INTO chain_head (id, count, hash) VALUES (1, 0, '"+genesisHash+"')",
		"SELECT setval(pg_get_serial_sequence('handoffs', 'id'), 1, false)",
		"SELECT setval(pg_get_serial_sequence('verify_runs', 'id'), 1, false)")
	if _, err := c.ExecContext(ctx, "SET session_replication_role = replica; BEGIN; "+
		strings.Join(stmts, "; ")+"; COMMIT"); err != nil {
		return err
	}
	return nil
}

// DropMigrated drops the pool's schemas; TestMain calls it after the tests.
func DropMigrated() {
	migrated.Lock()
	defer migrated.Unlock()
	if migrated.db == nil {
		return
	}
	for _, schema := range migrated.all {
		migrated.db.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
	}
	migrated.db.Close()
}

// WithSearchPath is base with its tables in schema.
func WithSearchPath(t testing.TB, base, schema string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Tampering is simulated the way an attacker with the sqlite3 shell would do
// it: drop the append-only triggers, switch foreign keys off, edit.

var guardTriggers = []string{
	"decisions_no_update", "decisions_no_delete", "chain_head_forward_only", "chain_head_no_delete",
	"tree_hashes_no_update", "tree_hashes_no_delete",
}

// Tamper runs stmts on db past the log's guards (on PostgreSQL, postgres
// true, as a superuser may), failing the test when one changes nothing.
func Tamper(t *testing.T, db *sql.DB, postgres bool, stmts ...string) {
	t.Helper()
	ctx := context.Background()
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	all := []string{"PRAGMA foreign_keys = OFF"}
	for _, tr := range guardTriggers {
		all = append(all, "DROP TRIGGER IF EXISTS "+tr)
	}
	all = append(all, stmts...)
	all = append(all, "PRAGMA foreign_keys = ON")
	if postgres {
		for _, q := range stmts {
			if strings.HasPrefix(q, "ALTER ") || strings.HasPrefix(q, "CREATE ") || strings.HasPrefix(q, "DROP ") {
				var schema string
				if err := c.QueryRowContext(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
					t.Fatal(err)
				}
				MarkAltered(schema)
			}
		}
		// A superuser's way past the guard triggers and foreign keys at once.
		all = append(append([]string{"SET session_replication_role = replica"}, stmts...),
			"SET session_replication_role = DEFAULT")
	}
	for _, q := range all {
		res, err := c.ExecContext(ctx, q)
		if err != nil {
			t.Fatalf("tamper %q: %v", q, err)
		}
		if n, _ := res.RowsAffected(); n == 0 && !isPragmaOrDDL(q) {
			t.Fatalf("tamper %q changed nothing", q)
		}
	}
}

func isPragmaOrDDL(q string) bool {
	return strings.HasPrefix(q, "PRAGMA ") || strings.HasPrefix(q, "DROP ") || strings.HasPrefix(q, "SET ") || strings.HasPrefix(q, "ALTER ")
}
