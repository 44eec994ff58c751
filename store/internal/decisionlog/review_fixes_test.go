package decisionlog

import (
	"context"
	"testing"
	"time"

	"github.com/tausik/tausik/store/internal/sqldb"
)

// fullPass runs the full pass alone.
func fullPass(t *testing.T, s *Log) LogReport {
	t.Helper()
	var rep LogReport
	if err := s.db.Read(context.Background(), func(q sqldb.Querier) (err error) {
		rep, err = fullVerifyLog(context.Background(), q)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return rep
}

// The tree table respelt so that the hashes, joined end to end, and the
// row count stay the same: a hash split across two rows, two merged into
// one, a row relabelled once the primary key is gone. Each is a break for
// the full pass, and must be one for the quick pass.
var _ = contract("quick pass reads the tree row by row", func(t *testing.T, open opener) {
	relabel := []string{"ALTER TABLE tree_hashes DROP CONSTRAINT tree_hashes_pkey", "UPDATE tree_hashes SET idx = 3 WHERE idx = 4"}
	for name, stmts := range map[string][]string{
		"split": {"UPDATE tree_hashes SET hash = hash || substr((SELECT hash FROM tree_hashes WHERE idx = 1), 1, 32) WHERE idx = 0",
			"UPDATE tree_hashes SET hash = substr(hash, 33) WHERE idx = 1"},
		"merged": {"UPDATE tree_hashes SET hash = hash || (SELECT hash FROM tree_hashes WHERE idx = 1) WHERE idx = 0",
			"UPDATE tree_hashes SET hash = '' WHERE idx = 1"},
		"relabelled": relabel,
	} {
		t.Run(name, func(t *testing.T) {
			s := seededStore(t, open, 4)
			if name == "relabelled" && s.db.Dialect != sqldb.Postgres { // SQLite: the same table without its key
				tamper(t, s, "ALTER TABLE tree_hashes RENAME TO th_old")
				if _, err := s.db.SQL.Exec("CREATE TABLE tree_hashes (idx INTEGER NOT NULL, hash TEXT NOT NULL)"); err != nil {
					t.Fatal(err)
				}
				stmts = []string{"INSERT INTO tree_hashes SELECT * FROM th_old ORDER BY idx", "DROP TABLE th_old", relabel[1]}
			}
			tamper(t, s, stmts...)
			if full := fullPass(t, s); full.OK {
				t.Fatal("precondition: the full pass sees the edit")
			}
			if rep, err := s.VerifyLog(context.Background()); err != nil || rep.OK {
				t.Errorf("VerifyLog says intact (%v) while the full pass reports a break", err)
			}
		})
	}
})

// The time column respelt as the same instant in another zone: a
// --since/--until window compares the column's text, so the decision would
// drop out of one it belongs in.
var _ = contract("time column only in its fixed-width UTC form", func(t *testing.T, open opener) {
	ctx, clock := context.Background(), newClock()
	s := open(t, WithClock(clock.Now))
	at := seed(t, s, clock, 3)[1].Time.UTC()
	tamper(t, s, "UPDATE decisions SET time = '"+at.In(time.FixedZone("", -3600)).Format(time.RFC3339Nano)+"' WHERE seq = 2")
	if es, err := s.ListDecisions(ctx, Filter{Since: at}); err != nil || len(es) != 1 {
		t.Fatalf("precondition: the window misses the decision (%d found, %v)", len(es), err)
	}
	rep, err := s.VerifyLog(ctx)
	if err != nil || rep.OK || rep.Break.Seq != 2 || rep.Break.Column != "time" {
		t.Errorf("VerifyLog: %+v %v", rep.Break, err)
	}
})

// A schema-2 gate row of another storage type or NULL (the attacker edits
// the schema first) is kept verbatim by the migration and reported, not a
// log that no longer opens.
func TestMigrationKeepsMistypedGateRows(t *testing.T) {
	for name, c := range map[string][3]string{
		"blocks text": {") STRICT, WITHOUT ROWID", ") WITHOUT ROWID", "UPDATE decision_gates SET blocks = 'x' WHERE seq = 3 AND idx = 1"},
		"name NULL":   {"name     TEXT    NOT NULL", "name     TEXT", "UPDATE decision_gates SET name = NULL WHERE seq = 3 AND idx = 1"},
	} {
		t.Run(name, func(t *testing.T) {
			o := sqliteOldLog(t)
			o.write(t, 4, honestGates)
			for _, q := range []string{"DROP TRIGGER decision_gates_no_update", "PRAGMA writable_schema = ON",
				"UPDATE sqlite_schema SET sql = replace(sql, '" + c[0] + "', '" + c[1] + "') WHERE name = 'decision_gates'",
				"PRAGMA writable_schema = RESET", c[2]} {
				if _, err := o.db.Exec(q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			o.db.Close()
			s, err := o.open()
			if err != nil {
				t.Fatalf("a log with one damaged gate row no longer opens: %v", err)
			}
			defer s.Close()
			if rep, err := s.VerifyLog(context.Background()); err != nil || rep.OK || rep.Break.Seq != 3 || rep.Break.Column != gatesColumn {
				t.Fatalf("report %+v %v", rep.Break, err)
			}
		})
	}
}

// A column stored in another type than append writes — a blob where text
// was, a real where an integer was (SQLite: the table rebuilt without its
// types; PostgreSQL: the column retyped) — which database/sql converts to
// what the pass compares and the log's readers refuse: log verify names
// the column, as the readers do.
var _ = contract("log verify names a column stored in another type", func(t *testing.T, open opener) {
	ctx := context.Background()
	for name, c := range map[string]struct{ col, sqlite, pg string }{
		"blob requester": {"requester", "UPDATE decisions SET requester = CAST(requester AS BLOB) WHERE seq = 2",
			"ALTER TABLE decisions ALTER COLUMN requester TYPE bytea USING convert_to(requester, 'UTF8')"},
		"real exit code": {"exit_code", "UPDATE decisions SET exit_code = exit_code + 0.0 WHERE seq = 2",
			"ALTER TABLE decisions ALTER COLUMN exit_code TYPE double precision"},
	} {
		t.Run(name, func(t *testing.T) {
			s := seededStore(t, open, 3)
			if s.db.Dialect == sqldb.Postgres {
				tamper(t, s, c.pg)
			} else {
				tamper(t, s, "ALTER TABLE decisions RENAME TO old")
				if _, err := s.db.SQL.Exec(`CREATE TABLE decisions (seq INTEGER PRIMARY KEY, id, time, trigger, task, requester,
					git_head, exit_code, blocked, body, prev_hash, hash, gates)`); err != nil {
					t.Fatal(err)
				}
				tamper(t, s, "INSERT INTO decisions SELECT * FROM old", "DROP TABLE old", c.sqlite)
			}
			if _, err := s.ListDecisions(ctx, Filter{}); err == nil {
				t.Fatal("precondition: the log's readers refuse the row")
			}
			at := int64(2)
			if s.db.Dialect == sqldb.Postgres {
				at = 1 // the whole column retyped
			}
			rep, err := s.VerifyLog(ctx)
			if err != nil || rep.OK || rep.Break.Column != c.col || rep.Break.Seq != at {
				t.Fatalf("VerifyLog: %+v %v", rep.Break, err)
			}
		})
	}
})
