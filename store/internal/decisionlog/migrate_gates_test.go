package decisionlog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/store/internal/sqldb"
	"github.com/tausik/tausik/store/internal/storetest"
)

// oldLog is a database at schema version 1 on one backend, written through
// raw SQL the way version 1 wrote it: decisions, a row per gate in
// decision_gates, the chain head; opening it migrates it to the latest
// version (the tree backfill of 2, the gate lists of 3).
type oldLog struct {
	db   *sql.DB
	d    *sqldb.Dialect
	open func() (*Log, error)
}

func sqliteOldLog(t *testing.T) oldLog {
	p := filepath.Join(t.TempDir(), "tausik.db")
	return oldLog{db: rawDB(t, p), d: sqldb.SQLite, open: func() (*Log, error) { return Open(context.Background(), p) }}
}

func postgresOldLog(t *testing.T) oldLog {
	u := storetest.NewSchema(t)
	db, err := sql.Open("pgx", u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1) // one session: write's SET holds for every statement
	return oldLog{db: db, d: sqldb.Postgres, open: func() (*Log, error) { return OpenPostgres(context.Background(), u) }}
}

// write creates the version 1 schema and appends n decisions, each with the
// gate rows gates returns for its seq (raw VALUES tuples without the seq).
func (o oldLog) write(t *testing.T, n int, gates func(seq int64) []string) {
	t.Helper()
	ctx := context.Background()
	ms, err := sqldb.MigrationsIn(o.d.Migrations)
	if err != nil {
		t.Fatal(err)
	}
	c := sqldb.Conn{Q: o.db, D: o.d}
	if _, err := c.ExecContext(ctx, ms[0].SQL); err != nil {
		t.Fatal(err)
	}
	if err := o.d.SetVersion(ctx, c, 1); err != nil {
		t.Fatal(err)
	}
	if o.d == sqldb.Postgres { // past the foreign key, as an attacker would go
		if _, err := c.ExecContext(ctx, "SET session_replication_role = replica"); err != nil {
			t.Fatal(err)
		}
	}
	prev := GenesisHash
	for i := range n {
		d := mkDecision(time.Date(2026, 1, 1, 0, 0, i, 0, time.UTC), "commit", "",
			gateSpec{"filesize", OutcomeFailed, SeverityBlock}, gateSpec{"ruff", OutcomePassed, SeverityWarn})
		rec, err := PrepareDecision(d, time.Now)
		if err != nil {
			t.Fatal(err)
		}
		rec.seq, rec.prevHash = int64(i+1), prev
		if rec.hash, err = chainHash(rec); err != nil {
			t.Fatal(err)
		}
		stmts := []string{insertStmtV1(rec)}
		for _, g := range gates(rec.seq) {
			stmts = append(stmts, fmt.Sprintf("INSERT INTO decision_gates (seq, idx, name, outcome, severity, blocks) VALUES (%s)", g))
		}
		stmts = append(stmts, fmt.Sprintf("UPDATE chain_head SET count = %d, hash = '%s'", rec.seq, rec.hash))
		for _, q := range stmts {
			if _, err := c.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		prev = rec.hash
	}
}

// honestGates are the gate rows version 1 wrote for the decisions of write.
func honestGates(seq int64) []string {
	return []string{fmt.Sprintf("%d, 0, 'filesize', 'FAILED', 'block', 1", seq), fmt.Sprintf("%d, 1, 'ruff', 'PASSED', 'warn', 0", seq)}
}

func eachOldBackend(t *testing.T, f func(t *testing.T, o func(*testing.T) oldLog)) {
	t.Run("sqlite", func(t *testing.T) { f(t, sqliteOldLog) })
	t.Run("postgres", func(t *testing.T) {
		storetest.PostgresURL(t)
		f(t, postgresOldLog)
	})
}

func TestMigrationMovesGateRowsIntoLists(t *testing.T) {
	ctx := context.Background()
	eachOldBackend(t, func(t *testing.T, mk func(*testing.T) oldLog) {
		t.Run("honest log", func(t *testing.T) {
			o := mk(t)
			o.write(t, 6, honestGates)
			s, err := o.open()
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if rep, err := s.VerifyLog(ctx); err != nil || !rep.OK || rep.Size != 6 {
				t.Fatalf("verify after migration: %+v %v", rep.Break, err)
			}
			if _, ok := s.quickVerifyLog(ctx); !ok {
				t.Error("the quick pass does not vouch for a migrated log")
			}
			es, err := s.ListDecisions(ctx, Filter{Gate: "ruff", Outcome: OutcomePassed})
			if err != nil || len(es) != 6 || len(es[0].Gates) != 2 || es[0].Gates[0] != (GateVerdict{"filesize", OutcomeFailed, SeverityBlock, true}) {
				t.Fatalf("filter after migration: %d entries %+v %v", len(es), es, err)
			}
			var tables int
			if err := s.db.Conn().QueryRowContext(ctx, `SELECT COUNT(*) FROM decisions WHERE gates = ''`).Scan(&tables); err != nil || tables != 0 {
				t.Fatalf("%d decisions left without a gate list (%v)", tables, err)
			}
			mustAppend(t, s, mkDecision(time.Now(), "commit", "", gateSpec{"ruff", OutcomePassed, SeverityWarn}))
			if rep, err := s.VerifyLog(ctx); err != nil || !rep.OK || rep.Size != 7 {
				t.Fatalf("verify after an append: %+v %v", rep.Break, err)
			}
			if _, err := s.db.Conn().ExecContext(ctx, "UPDATE decisions SET gates = '[]' WHERE seq = 1"); err == nil {
				t.Error("the update guard is not back after the migration")
			}
		})
		t.Run("damaged gate rows stay damaged", func(t *testing.T) {
			o := mk(t)
			o.write(t, 4, func(seq int64) []string {
				if seq == 3 { // the second gate renumbered, as an edit would leave it
					return []string{fmt.Sprintf("%d, 0, 'filesize', 'FAILED', 'block', 1", seq), fmt.Sprintf("%d, 5, 'ruff', 'PASSED', 'warn', 0", seq)}
				}
				return honestGates(seq)
			})
			s, err := o.open()
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			rep, err := s.VerifyLog(ctx)
			if err != nil || rep.OK || rep.Break.Seq != 3 || rep.Break.Column != gatesColumn ||
				!strings.Contains(rep.Break.Detail, "already damaged") {
				t.Fatalf("report %+v %v", rep.Break, err)
			}
			var kept string
			if err := s.db.Conn().QueryRowContext(ctx, "SELECT gates FROM decisions WHERE seq = 3").Scan(&kept); err != nil ||
				!strings.Contains(kept, `[5,"ruff","PASSED","warn",0]`) {
				t.Errorf("damaged rows not kept verbatim: %s %v", kept, err)
			}
		})
		t.Run("gate rows of no decision stop the migration", func(t *testing.T) {
			o := mk(t)
			o.write(t, 2, func(seq int64) []string {
				if seq == 2 {
					return append(honestGates(seq), "99, 0, 'filesize', 'PASSED', 'block', 0")
				}
				return honestGates(seq)
			})
			s, err := o.open()
			if err == nil {
				s.Close()
				t.Fatal("migrated a log whose gate rows would be lost")
			}
			if !errors.Is(err, sqldb.ErrChainBroken) || !strings.Contains(err.Error(), "seq 99") {
				t.Errorf("error %v", err)
			}
			var v int
			if v, err = o.d.ReadVersion(ctx, sqldb.Conn{Q: o.db, D: o.d}); err != nil || v != 1 {
				t.Errorf("schema version %d after a refused migration (%v): nothing may have moved", v, err)
			}
		})
	})
}
