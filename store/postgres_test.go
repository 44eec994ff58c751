package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// The PostgreSQL half of the contract suite runs on a real server, named by
// TAUSIK_TEST_POSTGRES (testdata/postgres/with-server.sh starts a throwaway
// one and sets it; .ci/run does). Each test gets a fresh schema of its own.

const testPostgresEnv = "TAUSIK_TEST_POSTGRES"

// testPostgresURL returns the server's URL. Without one the test fails in CI
// (CI=true: a missing dependency must never pass as a skip) and skips loudly
// elsewhere.
func testPostgresURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(testPostgresEnv)
	if u != "" {
		return u
	}
	msg := testPostgresEnv + " is not set: the PostgreSQL backend is NOT TESTED; " +
		"run the tests under testdata/postgres/with-server.sh (as .ci/run does)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip("SKIPPED: " + msg)
	return ""
}

// newPostgresSchema creates an empty schema on the test server, dropped when
// the test ends, and returns the URL of a connection whose tables live in it.
func newPostgresSchema(t testing.TB) string {
	t.Helper()
	base := testPostgresURL(t)
	var b [8]byte
	rand.Read(b[:])
	schema := "tausik_test_" + hex.EncodeToString(b[:])
	admin := adminDB(t, base)
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	})
	return withSearchPath(t, base, schema)
}

func adminDB(t testing.TB, rawURL string) *sql.DB {
	t.Helper()
	pc, err := pgx.ParseConfig(rawURL)
	if err != nil {
		t.Fatalf("%s: %v", testPostgresEnv, err)
	}
	return stdlib.OpenDB(*pc)
}

// migrated is a pool of migrated schemas: creating and migrating one costs
// half a second of DDL on a busy machine, emptying one a few milliseconds,
// and the contract suite opens hundreds.
var migrated struct {
	sync.Mutex
	free []string // URLs of migrated schemas holding only what migrations write
	all  []string // every schema the pool made, dropped by dropMigrated
	db   *sql.DB
}

// migratedPostgres returns the URL of a migrated schema of the test's own,
// as fresh as a new one: when the test ends, every row it wrote is deleted
// (triggers and foreign keys off, as a superuser may), the chain head is back
// at genesis and the identity counters restart, before another test gets it.
func migratedPostgres(t testing.TB) string {
	t.Helper()
	base := testPostgresURL(t)
	migrated.Lock()
	var u string
	if n := len(migrated.free); n > 0 {
		u, migrated.free = migrated.free[n-1], migrated.free[:n-1]
	}
	if migrated.db == nil {
		migrated.db = adminDB(t, base)
	}
	migrated.Unlock()
	if u == "" {
		u = newPoolSchema(t, base)
	}
	t.Cleanup(func() {
		if _, altered := alteredSchemas.Load(schemaOf(t, u)); altered {
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

// alteredSchemas holds the schemas a test changed the tables of (tamper's
// ALTER, CREATE, DROP): emptying their rows would not make them as
// migrated, so they never go back to the pool.
var alteredSchemas sync.Map

// schemaOf is the schema a migratedPostgres URL searches.
func schemaOf(t testing.TB, u string) string {
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
	u := withSearchPath(t, base, schema)
	s, err := OpenPostgres(context.Background(), u)
	if err != nil {
		t.Fatalf("migrate test schema: %v", err)
	}
	s.Close()
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
		"INSERT INTO chain_head (id, count, hash) VALUES (1, 0, '"+GenesisHash+"')",
		"SELECT setval(pg_get_serial_sequence('handoffs', 'id'), 1, false)",
		"SELECT setval(pg_get_serial_sequence('verify_runs', 'id'), 1, false)")
	if _, err := c.ExecContext(ctx, "SET session_replication_role = replica; BEGIN; "+
		strings.Join(stmts, "; ")+"; COMMIT"); err != nil {
		return err
	}
	return nil
}

// dropMigrated drops the pool's schemas; TestMain calls it after the tests.
func dropMigrated() {
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

func withSearchPath(t testing.TB, base, schema string) string {
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

func openPostgres(t *testing.T, opts ...Option) *Store {
	t.Helper()
	s, err := OpenPostgres(context.Background(), migratedPostgres(t), opts...)
	if err != nil {
		t.Fatalf("OpenPostgres: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContractPostgres(t *testing.T) {
	testPostgresURL(t)
	runContract(t, openPostgres)
}

func TestRebind(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT 1":        "SELECT 1",
		"a = ? AND b = ?": "a = $1 AND b = $2",
		"x = '?' AND y = ? AND z = \"q?\" AND w = ?": "x = '?' AND y = $1 AND z = \"q?\" AND w = $2",
		"IN (?,?,?)":             "IN ($1,$2,$3)",
		"s = 'it''s ?' OR t = ?": "s = 'it''s ?' OR t = $1",
		// Comments: a quote inside one opens no string, a ? in one is text.
		"a = ? -- don't ?\nAND b = ?":           "a = $1 -- don't ?\nAND b = $2",
		"/* it's ? */ a = ? /* \" */ AND b = ?": "/* it's ? */ a = $1 /* \" */ AND b = $2",
		"a = ? -- trailing, no newline's end":   "a = $1 -- trailing, no newline's end",
		"a = 'x--y' AND b = ? - 1":              "a = 'x--y' AND b = $1 - 1",
		"a = ? / 2 AND b = ?":                   "a = $1 / 2 AND b = $2",
	} {
		if got := rebind(in); got != want {
			t.Errorf("rebind(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMigrationsMatchAcrossBackends(t *testing.T) {
	lite, err := migrationsIn(sqliteDialect.migrations)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := migrationsIn(postgresDialect.migrations)
	if err != nil {
		t.Fatal(err)
	}
	if len(lite) != len(pg) {
		t.Fatalf("%d SQLite migrations, %d PostgreSQL ones: every schema change needs both", len(lite), len(pg))
	}
	for i := range lite {
		if lite[i].name != pg[i].name {
			t.Errorf("migration %d: %s on SQLite, %s on PostgreSQL", i+1, lite[i].name, pg[i].name)
		}
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:secret@h:5/db?sslmode=disable": "postgres://u:xxxxx@h:5/db?sslmode=disable",
		"postgres://u@h/db":                          "postgres://u@h/db",
		"postgres://h/db?password=secret&x=1":        "postgres://h/db?password=xxxxx&x=1",
	} {
		if got := RedactURL(in); got != want || strings.Contains(got, "secret") {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
		if URLHasPassword(in) != strings.Contains(in, "secret") {
			t.Errorf("URLHasPassword(%q) wrong", in)
		}
	}
}

func TestOpenPostgresUnreachable(t *testing.T) {
	// Port 1 on the loopback refuses at once; no server is needed.
	_, err := OpenPostgres(context.Background(), "postgres://u:secret@127.0.0.1:1/db?sslmode=disable&connect_timeout=5")
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("err = %v, want ErrUnreachable", err)
	}
	if msg := err.Error(); strings.Contains(msg, "secret") || !strings.Contains(msg, "postgres://u:xxxxx@127.0.0.1:1/db") {
		t.Fatalf("message must name the server without its password: %s", msg)
	}
	if _, err := OpenPostgres(context.Background(), "/var/db/tausik.db"); err == nil || errors.Is(err, ErrUnreachable) {
		t.Fatalf("a path is not a server URL: %v", err)
	}
}

func TestOpenPostgresRefusesNewerSchemaUntouched(t *testing.T) {
	ctx := context.Background()
	u := newPostgresSchema(t)
	db := adminDB(t, u)
	defer db.Close()
	if _, err := db.ExecContext(ctx, `CREATE TABLE future (x int);
		CREATE TABLE tausik_schema (id INTEGER PRIMARY KEY, version INTEGER NOT NULL);
		INSERT INTO tausik_schema VALUES (1, 99)`); err != nil {
		t.Fatal(err)
	}
	for _, opts := range [][]Option{nil, {WithReadOnly()}} {
		_, err := OpenPostgres(ctx, u, opts...)
		if !errors.Is(err, ErrSchemaTooNew) || !strings.Contains(err.Error(), "99") {
			t.Fatalf("err = %v, want ErrSchemaTooNew naming 99", err)
		}
	}
	var tables int
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema()").Scan(&tables); err != nil || tables != 2 {
		t.Fatalf("a too-new schema was touched: %d tables (%v)", tables, err)
	}
}

func TestOpenPostgresReadOnlyRefusesEmptySchema(t *testing.T) {
	_, err := OpenPostgres(context.Background(), newPostgresSchema(t), WithReadOnly())
	if !errors.Is(err, ErrSchemaOutdated) {
		t.Fatalf("err = %v, want ErrSchemaOutdated", err)
	}
}

func TestPostgresOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://ci:pw@db.internal/tausik":                      "db.internal:5432/tausik",
		"postgres://ci@db.internal:6432/tausik?search_path=team_a": "db.internal:6432/tausik/team_a",
		"postgres://ci@db/t?search_path=a,public&sslmode=disable":  "db:5432/t/a",
	} {
		if got, err := PostgresOrigin(in); err != nil || got != want {
			t.Errorf("PostgresOrigin(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
