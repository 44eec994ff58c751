package store

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

type migration struct {
	version int
	name    string
	sql     string
}

// backfills are Go steps that run in a version's transaction for what SQL
// alone cannot compute (tree hashes of old rows, canonical gate lists): at
// the file's backfillMarker line, or right after its SQL when it has none.
var backfills = map[int]func(context.Context, querier) error{
	2: backfillTree,
	3: backfillGates,
	5: backfillTaskStates,
}

// backfillMarker splits a migration file into the SQL before its backfill
// and the SQL after it.
const backfillMarker = "-- tausik:backfill\n"

// migrations returns the embedded migrations in version order. The embedded
// set is fixed at build time, so a malformed name is a build mistake that
// tests catch; at run time it yields an error, never a panic.
func migrations() ([]migration, error) { return migrationsIn("migrations") }

func migrationsIn(dir string) ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, dir)
	if err != nil {
		return nil, err
	}
	var out []migration
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
		out = append(out, migration{version: v, name: name, sql: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected version %d", m.name, i+1)
		}
	}
	return out, nil
}

// latestVersion is the schema version this binary writes.
func latestVersion() int {
	ms, err := migrations()
	if err != nil {
		return 0
	}
	return len(ms)
}

// SchemaVersion reports the schema version this binary reads and writes, for
// `tausik version` and error messages.
func SchemaVersion() int { return latestVersion() }

// migrate applies every pending migration in one write transaction. The
// version is re-read under the write lock, so processes opening a new file at
// the same moment migrate it exactly once.
func (s *Store) migrate(ctx context.Context) error {
	ms, err := migrationsIn(s.d.migrations)
	if err != nil {
		return err
	}
	return s.applyMigrations(ctx, ms)
}

// applyMigrations brings the database to len(ms); a failing migration rolls
// back every migration of this open, version included.
func (s *Store) applyMigrations(ctx context.Context, ms []migration) error {
	return s.writeLocked(ctx, s.d.migrationLock, func(q querier) error {
		v, err := s.d.readVersion(ctx, q)
		if err != nil {
			return fmt.Errorf("read schema version: %w", err)
		}
		if v > len(ms) {
			return fmt.Errorf("%w: database is at schema version %d, this binary knows versions up to %d; upgrade tausik",
				ErrSchemaTooNew, v, len(ms))
		}
		for _, m := range ms[v:] {
			before, after, _ := strings.Cut(m.sql, backfillMarker)
			if _, err := q.ExecContext(ctx, before); err != nil {
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
			if fill := backfills[m.version]; fill != nil {
				if err := fill(ctx, q); err != nil {
					return fmt.Errorf("migration %s: %w", m.name, err)
				}
			}
			if strings.TrimSpace(after) != "" {
				if _, err := q.ExecContext(ctx, after); err != nil {
					return fmt.Errorf("migration %s: %w", m.name, err)
				}
			}
			if err := s.d.setVersion(ctx, q, m.version); err != nil {
				return fmt.Errorf("migration %s: set version: %w", m.name, err)
			}
		}
		return nil
	})
}
