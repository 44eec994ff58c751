package store

import (
	"testing"

	"github.com/tausik/tausik/store/internal/sqldb"
)

// Registered last (file name): a pooled PostgreSQL schema must be as migrated,
// whatever DDL the tests before this one ran.
var _ = contract("pooled schema is as migrated", func(t *testing.T, open opener) {
	s := open(t)
	if s.db.Dialect != sqldb.Postgres {
		return
	}
	var keys, notNull int
	if err := s.db.SQL.QueryRow(`SELECT (SELECT count(*) FROM pg_constraint WHERE contype = 'p' AND connamespace = current_schema()::regnamespace
		AND conname IN ('decisions_pkey', 'tree_hashes_pkey')), (SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema()
		AND table_name = 'decisions' AND column_name IN ('task', 'hash') AND is_nullable = 'NO')`).Scan(&keys, &notNull); err != nil {
		t.Fatal(err)
	}
	if keys != 2 || notNull != 2 {
		t.Errorf("an earlier test's DDL is in the pooled schema: %d of 2 primary keys, %d of 2 NOT NULLs", keys, notNull)
	}
})
