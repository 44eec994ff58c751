package store

import (
	"github.com/tausik/tausik/store/internal/storetest"

	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
)

// The PostgreSQL half of the contract suite runs on a real server
// (storetest): each test gets a schema of its own.

func testPostgresURL(t testing.TB) string         { return storetest.PostgresURL(t) }
func newPostgresSchema(t testing.TB) string       { return storetest.NewSchema(t) }
func adminDB(t testing.TB, rawURL string) *sql.DB { return storetest.AdminDB(t, rawURL) }
func migratedPostgres(t testing.TB) string        { return storetest.Migrated(t) }

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
