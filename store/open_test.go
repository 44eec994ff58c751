package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tausik/tausik/store/internal/sqldb"
)

func TestMigrationsWellFormed(t *testing.T) {
	ms, err := sqldb.MigrationsIn("migrations")
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 || SchemaVersion() != len(ms) {
		t.Fatalf("%d migrations, SchemaVersion %d", len(ms), SchemaVersion())
	}
}

func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestOpenCreatesPrivateFileAndMigrates(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "repo", ".tausik")
	p := filepath.Join(dir, "tausik.db")
	s, err := Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("dir mode: %v %v", fi.Mode(), err)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file mode: %v %v", fi.Mode(), err)
	}
	var mode string
	var sync_, fk int
	if err := s.db.SQL.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal mode %q %v", mode, err)
	}
	// Per-connection pragmas reach every pooled connection, not only the first.
	var conns []*sql.Conn
	for range 3 {
		c, err := s.db.SQL.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		if err := c.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync_); err != nil || sync_ != 2 {
			t.Fatalf("synchronous = %d %v, want 2 (FULL)", sync_, err)
		}
		if err := c.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
			t.Fatalf("foreign_keys = %d %v", fk, err)
		}
	}
	for _, c := range conns {
		c.Close()
	}
	v, _ := s.db.Dialect.ReadVersion(ctx, s.db.Conn())
	if v != SchemaVersion() {
		t.Fatalf("user_version %d", v)
	}
	s.Close()
	// Reopening is a no-op migration.
	s2, err := Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	s2.Close()
}

func TestOpenConcurrentFirstOpen(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testOpenConcurrentFirstOpen(t, filepath.Join(t.TempDir(), "tausik.db")) })
	t.Run("postgres", func(t *testing.T) { testOpenConcurrentFirstOpen(t, newPostgresSchema(t)) })
}

func testOpenConcurrentFirstOpen(t *testing.T, p string) {
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := openTarget(context.Background(), p)
			if err == nil {
				_, err = s.AppendDecision(context.Background(), mkDecision(time.Now(), "commit", ""))
				s.Close()
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	s, err := openTarget(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if rep := mustVerify(t, s); rep.Rows != 8 {
		t.Fatalf("%d rows", rep.Rows)
	}
}

func TestOpenRefusesNewerSchemaUntouched(t *testing.T) {
	p := filepath.Join(t.TempDir(), "tausik.db")
	db := rawDB(t, p)
	if _, err := db.Exec("CREATE TABLE future (x); PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	for _, opts := range [][]Option{nil, {WithReadOnly()}} {
		_, err = Open(context.Background(), p, opts...)
		if !errors.Is(err, ErrSchemaTooNew) {
			t.Fatalf("err = %v, want ErrSchemaTooNew", err)
		}
		if msg := err.Error(); !strings.Contains(msg, "99") || !strings.Contains(msg, fmt.Sprintf("up to %d", SchemaVersion())) {
			t.Fatalf("message does not name the versions: %s", msg)
		}
	}
	after, _ := os.ReadFile(p)
	fi2, _ := os.Stat(p)
	if !bytes.Equal(before, after) || !fi.ModTime().Equal(fi2.ModTime()) {
		t.Fatal("a too-new database was modified")
	}
	if _, err := os.Stat(p + "-wal"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a WAL file was created next to a too-new database: %v", err)
	}
}

func TestReadOnlyStoreRefusesWrites(t *testing.T) { eachBackend(t, testReadOnlyStoreRefusesWrites) }

func testReadOnlyStoreRefusesWrites(t *testing.T, p string) {
	ctx := context.Background()
	s, err := openTarget(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, mkDecision(time.Now(), "commit", ""))
	s.Close()

	ro, err := openTarget(ctx, p, WithReadOnly())
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if rep := mustVerify(t, ro); rep.Rows != 1 {
		t.Fatalf("read-only verify saw %d rows", rep.Rows)
	}
	if _, err := ro.AppendDecision(ctx, mkDecision(time.Now(), "commit", "")); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("append on read-only store: %v", err)
	}
	if _, err := ro.CreateTask(ctx, mkTask("x")); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("create task on read-only store: %v", err)
	}
	if _, err := ro.StartSession(ctx); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("start session on read-only store: %v", err)
	}
	if IsPostgresURL(p) {
		return
	}
	if _, err := Open(ctx, filepath.Join(t.TempDir(), "absent.db"), WithReadOnly()); err == nil {
		t.Fatal("read-only open created or accepted a missing file")
	}
}

func TestReadOnlyRefusesOutdatedSchema(t *testing.T) {
	p := filepath.Join(t.TempDir(), "tausik.db")
	db := rawDB(t, p)
	if _, err := db.Exec("CREATE TABLE x (y)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(context.Background(), p, WithReadOnly()); !errors.Is(err, ErrSchemaOutdated) {
		t.Fatalf("err = %v", err)
	}
}

func TestBrokenDatabase(t *testing.T) {
	ctx := context.Background()
	t.Run("not a database", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "tausik.db")
		if err := os.WriteFile(p, bytes.Repeat([]byte("garbage!"), 1024), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(ctx, p); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("err = %v, want ErrCorrupt", err)
		}
	})
	t.Run("every page but the first damaged", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "tausik.db")
		s, err := Open(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			mustAppend(t, s, mkDecision(time.Now(), "commit", ""))
		}
		s.Close() // checkpoints the WAL into the main file
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		const page = 4096
		for i := page; i < len(data); i++ {
			data[i] = 0xA5
		}
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err = Open(ctx, p)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("open of damaged file: %v", err)
			}
			t.Logf("open refused: %v", err)
			return
		}
		defer s.Close()
		_, err = s.AppendDecision(ctx, mkDecision(time.Now(), "commit", ""))
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("append on a damaged database: %v, want ErrCorrupt", err)
		}
	})
	t.Run("table page damaged", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "tausik.db")
		s, err := Open(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		mustAppend(t, s, mkDecision(time.Now(), "commit", ""))
		var root int
		if err := s.db.SQL.QueryRowContext(ctx, "SELECT rootpage FROM sqlite_master WHERE name = 'chain_head'").Scan(&root); err != nil {
			t.Fatal(err)
		}
		s.Close()
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		const page = 4096
		for i := (root - 1) * page; i < root*page && i < len(data); i++ {
			data[i] = 0xA5
		}
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err = Open(ctx, p)
		if err != nil {
			t.Fatalf("open with an intact schema failed: %v", err)
		}
		defer s.Close()
		_, err = s.AppendDecision(ctx, mkDecision(time.Now(), "commit", ""))
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("append on a damaged database: %v, want ErrCorrupt", err)
		}
		if _, err := s.VerifyChain(ctx); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("verify on a damaged database: %v, want ErrCorrupt", err)
		}
	})
	t.Run("closed store", func(t *testing.T) {
		s := openFile(t)
		s.Close()
		if _, err := s.AppendDecision(ctx, mkDecision(time.Now(), "commit", "")); err == nil {
			t.Fatal("append on a closed store succeeded")
		}
	})
	t.Run("parent is a file", func(t *testing.T) {
		f := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(ctx, filepath.Join(f, "tausik.db")); err == nil {
			t.Fatal("opened a database under a regular file")
		}
	})
}

func TestOpenOddPath(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "we?ird #dir %41")
	s, err := Open(ctx, filepath.Join(dir, "tausik.db"))
	if err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, mkDecision(time.Now(), "commit", ""))
	s.Close()
	if _, err := os.Stat(filepath.Join(dir, "tausik.db")); err != nil {
		t.Fatalf("database not at the literal path: %v", err)
	}
}

func TestMemoryStoresAreIsolated(t *testing.T) {
	a, b := openMem(t), openMem(t)
	mustAppend(t, a, mkDecision(time.Now(), "commit", ""))
	if rep := mustVerify(t, b); rep.Rows != 0 {
		t.Fatalf("memory stores share data: %d rows", rep.Rows)
	}
	if a.Path() != ":memory:" {
		t.Fatalf("path %q", a.Path())
	}
	// The pool may drop idle connections; the pinned one keeps the data alive.
	a.db.SQL.SetMaxIdleConns(0)
	mustAppend(t, a, mkDecision(time.Now(), "commit", ""))
	if rep := mustVerify(t, a); rep.Rows != 2 {
		t.Fatalf("memory store lost data: %d rows", rep.Rows)
	}
}

func TestFailedMigrationRollsBack(t *testing.T) {
	ctx := context.Background()
	s := openFile(t)
	ms, err := sqldb.MigrationsIn("migrations")
	if err != nil {
		t.Fatal(err)
	}
	next := len(ms) + 1
	broken := append(ms, sqldb.Migration{Version: next, Name: "x_ok.sql", SQL: "CREATE TABLE added (x)"},
		sqldb.Migration{Version: next + 1, Name: "y_broken.sql", SQL: "CREATE TABLE nope (x); SELECT * FROM missing_table"})
	if err := s.db.ApplyMigrations(ctx, broken, nil); err == nil || !strings.Contains(err.Error(), "y_broken.sql") {
		t.Fatalf("broken migration: %v", err)
	}
	if v, _ := s.db.Dialect.ReadVersion(ctx, s.db.Conn()); v != len(ms) {
		t.Fatalf("user_version %d after a failed migration, want %d", v, len(ms))
	}
	var n int
	if err := s.db.SQL.QueryRowContext(ctx, "SELECT COUNT(*) FROM sqlite_master WHERE name IN ('added', 'nope')").Scan(&n); err != nil || n != 0 {
		t.Fatalf("tables of a failed migration run survived: %d %v", n, err)
	}
	if err := s.db.ApplyMigrations(ctx, broken[:next], nil); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.db.Dialect.ReadVersion(ctx, s.db.Conn()); v != next {
		t.Fatalf("user_version %d, want %d", v, next)
	}
}
