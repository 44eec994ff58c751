package sqldb

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
)

// migrationFiles holds the schema, one numbered SQL file per version
// (0001_init.sql is version 1), SQLite's in migrations/ and PostgreSQL's in
// migrations/postgres/ under the same numbers. A file is never edited once
// released; a schema change is a new file in both directories.
//
//go:embed migrations/*.sql migrations/postgres/*.sql
var migrationFiles embed.FS

// Migration is one version of the schema.
type Migration struct {
	Version int
	Name    string // its file's name
	SQL     string // its file's text
}

// A Backfill (Config.Backfills) is a Go step that runs in a version's
// transaction for what SQL alone cannot compute (tree hashes of old rows,
// canonical gate lists): at the file's backfillMarker line, or right after
// its SQL when it has none.

// backfillMarker splits a migration file into the SQL before its backfill
// and the SQL after it.
const backfillMarker = "-- tausik:backfill\n"

// migrations returns the embedded migrations in version order. The embedded
// set is fixed at build time, so a malformed name is a build mistake that
// tests catch; at run time it yields an error, never a panic.
func migrations() ([]Migration, error) { return migrationsIn("migrations") }

// MigrationsIn returns the embedded migrations of dir ("migrations" or
// "migrations/postgres") in version order.
func MigrationsIn(dir string) ([]Migration, error) { return migrationsIn(dir) }

func migrationsIn(dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(migrationFiles, dir)
	if err != nil {
		return nil, err
	}
	var out []Migration
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		name := e.Name()
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must start with a positive version number", name)
		}
		b, err := migrationFiles.ReadFile(dir + "/" + name)
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{Version: v, Name: name, SQL: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	for i, m := range out {
		if m.Version != i+1 {
			return nil, fmt.Errorf("migration %s: expected version %d", m.Name, i+1)
		}
	}
	return out, nil
}

// LatestVersion is the schema version this binary reads and writes.
func LatestVersion() int {
	ms, err := migrations()
	if err != nil {
		return 0
	}
	return len(ms)
}

// migrate applies every pending migration in one write transaction. The
// version is re-read under the write lock, so processes opening a new file at
// the same moment migrate it exactly once.
func (db *DB) migrate(ctx context.Context, fills map[int]Backfill) error {
	ms, err := migrationsIn(db.Dialect.Migrations)
	if err != nil {
		return err
	}
	return db.ApplyMigrations(ctx, ms, fills)
}

// ApplyMigrations brings the database to len(ms), running fills' steps; a
// failing migration rolls back every migration of this open, version
// included.
func (db *DB) ApplyMigrations(ctx context.Context, ms []Migration, fills map[int]Backfill) error {
	return db.writeLocked(ctx, db.Dialect.migrationLock, func(q Querier) error {
		v, err := db.Dialect.ReadVersion(ctx, q)
		if err != nil {
			return fmt.Errorf("read schema version: %w", err)
		}
		if v > len(ms) {
			return fmt.Errorf("%w: database is at schema version %d, this binary knows versions up to %d; upgrade tausik",
				ErrSchemaTooNew, v, len(ms))
		}
		for _, m := range ms[v:] {
			before, after, _ := strings.Cut(m.SQL, backfillMarker)
			if _, err := q.ExecContext(ctx, before); err != nil {
				return fmt.Errorf("migration %s: %w", m.Name, err)
			}
			if fill := fills[m.Version]; fill != nil {
				if err := fill(ctx, q); err != nil {
					return fmt.Errorf("migration %s: %w", m.Name, err)
				}
			}
			if strings.TrimSpace(after) != "" {
				if _, err := q.ExecContext(ctx, after); err != nil {
					return fmt.Errorf("migration %s: %w", m.Name, err)
				}
			}
			if err := db.Dialect.SetVersion(ctx, q, m.Version); err != nil {
				return fmt.Errorf("migration %s: set version: %w", m.Name, err)
			}
		}
		return nil
	})
}
