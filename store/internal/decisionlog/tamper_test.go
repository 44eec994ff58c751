package decisionlog

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tausik/tausik/store/internal/sqldb"
	"github.com/tausik/tausik/store/internal/storetest"
)

// tamper edits s's database as an attacker would (storetest.Tamper).
func tamper(t *testing.T, s *Log, stmts ...string) {
	t.Helper()
	storetest.Tamper(t, s.db.SQL, s.db.Dialect == sqldb.Postgres, stmts...)
}

// expectBreak verifies and fails unless the chain is reported broken with
// the given kind (and column, when non-empty).
func expectBreak(t *testing.T, s *Log, name string, kinds []BreakKind, column string) *ChainBreak {
	t.Helper()
	rep, err := s.VerifyChain(context.Background())
	if err != nil {
		t.Fatalf("%s: VerifyChain error: %v", name, err)
	}
	if rep.OK || rep.Break == nil || rep.Err() == nil {
		t.Fatalf("%s: tampering not detected (report %+v)", name, rep)
	}
	ok := false
	for _, k := range kinds {
		ok = ok || rep.Break.Kind == k
	}
	if !ok {
		t.Errorf("%s: break kind %s, want one of %v (%s)", name, rep.Break.Kind, kinds, rep.Break)
	}
	if column != "" && rep.Break.Column != column {
		t.Errorf("%s: column %q, want %q (%s)", name, rep.Break.Column, column, rep.Break)
	}
	lrep, err := s.VerifyLog(context.Background())
	if err != nil {
		t.Fatalf("%s: VerifyLog error: %v", name, err)
	}
	if lrep.OK || lrep.Break == nil {
		t.Fatalf("%s: VerifyLog did not detect the tampering", name)
	}
	return rep.Break
}

func seededStore(t *testing.T, open opener, n int) *Log {
	t.Helper()
	clock := newClock()
	s := open(t, WithClock(clock.Now))
	seed(t, s, clock, n)
	mustVerify(t, s)
	return s
}

var content = []BreakKind{BreakContent}

var _ = contract("tamper_every_column_of_every_row", func(t *testing.T, open opener) {
	const n = 5
	columns := []struct {
		col    string
		set    string // SET clause; ? is replaced by the row's seq where needed
		column string // expected ChainBreak.Column, "" = any
		kinds  []BreakKind
	}{
		{"id", "id = '" + sqldb.NewID(time.Unix(1, 0)) + "'", "id", content},
		{"time", "time = '2030-01-01T00:00:00.000000000Z'", "time", content},
		{"trigger", "trigger = 'review'", "trigger", content},
		{"task", "task = 'sneaky'", "task", content},
		{"requester", "requester = 'mcp:evil'", "requester", content},
		{"git_head", "git_head = 'ffff'", "git_head", content},
		{"exit_code", "exit_code = exit_code + 1", "exit_code", content},
		{"blocked", "blocked = 1 - blocked", "blocked", content},
		{"body value", "body = replace(body, '\"facts_digest\":\"sha256:feed\"', '\"facts_digest\":\"sha256:beef\"')", "body", content},
		{"body whitespace", "body = body || ' '", "body", content},
		{"body key order", "body = replace(body, '{\"blocked\":', '{ \"blocked\":')", "body", content},
		{"prev_hash", "prev_hash = substr(prev_hash, 1, 63) || (CASE substr(prev_hash, 64) WHEN '0' THEN '1' ELSE '0' END)", "prev_hash", content},
		{"hash", "hash = substr(hash, 1, 63) || (CASE substr(hash, 64) WHEN '0' THEN '1' ELSE '0' END)", "hash", content},
		{"seq", "seq = seq + 1000", "", []BreakKind{BreakContent, BreakMissing}},
	}
	for _, row := range []int{1, 3, n} {
		for _, c := range columns {
			name := fmt.Sprintf("row %d column %s", row, c.col)
			t.Run(name, func(t *testing.T) {
				s := seededStore(t, open, n)
				tamper(t, s, fmt.Sprintf("UPDATE decisions SET %s WHERE seq = %d", c.set, row))
				b := expectBreak(t, s, name, c.kinds, c.column)
				if c.col != "seq" && b.Seq != int64(row) {
					t.Errorf("%s: break reported at seq %d", name, b.Seq)
				}
			})
		}
	}
	// The gates column: every way of changing it that a filter could be
	// fooled by, the first gate of each seeded decision is filesize.
	gateEdits := []struct{ name, set string }{
		{"name", `gates = replace(gates, '"name":"filesize"', '"name":"other"')`},
		{"outcome", `gates = replace(replace(replace(gates, '"outcome":"PASSED"', '"outcome":"X"'), '"outcome":"FAILED"', '"outcome":"PASSED"'), '"outcome":"X"', '"outcome":"FAILED"')`},
		{"severity", `gates = replace(gates, '"severity":"block"', '"severity":"warn"')`},
		{"blocks", `gates = replace(replace(replace(gates, '"blocks":true', '"blocks":X'), '"blocks":false', '"blocks":true'), '"blocks":X', '"blocks":false')`},
		{"gate dropped", `gates = replace(gates, ',{"blocks":false,"name":"tdd_order","outcome":"NOT_APPLICABLE","severity":"warn"}', '')`},
		{"gate list emptied", `gates = '[]'`},
		{"equivalent JSON in another spelling", `gates = replace(gates, ',"name":', ', "name":')`},
		{"keys reordered", `gates = replace(gates, '{"blocks":false,"name":"tdd_order"', '{"name":"tdd_order","blocks":false')`},
		{"not JSON", `gates = 'filesize'`},
		{"NULL text", `gates = 'null'`},
	}
	for _, row := range []int{1, 3, n} {
		for _, c := range gateEdits {
			name := fmt.Sprintf("row %d gates %s", row, c.name)
			t.Run(name, func(t *testing.T) {
				s := seededStore(t, open, n)
				tamper(t, s, fmt.Sprintf("UPDATE decisions SET %s WHERE seq = %d", c.set, row))
				b := expectBreak(t, s, name, content, "")
				if b.Seq != int64(row) || (b.Column != gatesColumn && b.Column != "body") {
					t.Errorf("%s: break %s", name, b)
				}
			})
		}
	}
})

var _ = contract("tamper_delete_rows", func(t *testing.T, open opener) {
	for _, tc := range []struct {
		name  string
		seqs  string
		kind  BreakKind
		atSeq int64
	}{
		{"first", "1", BreakMissing, 2},
		{"middle", "3", BreakMissing, 4},
		{"last", "5", BreakTruncated, 5},
		{"tail of three", "3, 4, 5", BreakTruncated, 3},
		{"all", "1, 2, 3, 4, 5", BreakTruncated, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := seededStore(t, open, 5)
			tamper(t, s, "DELETE FROM decisions WHERE seq IN ("+tc.seqs+")")
			b := expectBreak(t, s, tc.name, []BreakKind{tc.kind}, "")
			if b.Seq != tc.atSeq {
				t.Errorf("break at seq %d, want %d (%s)", b.Seq, tc.atSeq, b)
			}
		})
	}
})

var _ = contract("tamper_reorder_and_insert", func(t *testing.T, open opener) {
	ctx := context.Background()
	t.Run("swap two rows", func(t *testing.T) {
		s := seededStore(t, open, 5)
		var stmts []string
		stmts = append(stmts,
			"UPDATE decisions SET seq = -2 WHERE seq = 2",
			"UPDATE decisions SET seq = 2 WHERE seq = 3",
			"UPDATE decisions SET seq = 3 WHERE seq = -2")
		tamper(t, s, stmts...)
		b := expectBreak(t, s, "swap", content, "seq")
		if b.Seq != 2 {
			t.Errorf("break at %d", b.Seq)
		}
	})
	t.Run("forged row appended with a valid hash", func(t *testing.T) {
		s := seededStore(t, open, 5)
		rec := forgeRecord(t, s, 6)
		tamper(t, s, insertStmt(rec))
		expectBreak(t, s, "forged tail", []BreakKind{BreakUnwitnessed}, "")
	})
	t.Run("forged row appended with a bad hash", func(t *testing.T) {
		s := seededStore(t, open, 5)
		rec := forgeRecord(t, s, 6)
		rec.hash = GenesisHash
		tamper(t, s, insertStmt(rec))
		expectBreak(t, s, "forged tail bad hash", content, "")
	})
	t.Run("forged row inserted in the middle", func(t *testing.T) {
		s := seededStore(t, open, 5)
		rec := forgeRecord(t, s, 3)
		stmts := []string{"UPDATE decisions SET seq = -(seq + 1) WHERE seq >= 3",
			"UPDATE decisions SET seq = -seq WHERE seq < 0"}
		tamper(t, s, append(stmts, insertStmt(rec))...)
		b := expectBreak(t, s, "forged middle", content, "seq")
		if b.Seq != 4 {
			t.Errorf("break at %d (%s)", b.Seq, b)
		}
	})
	t.Run("consistent edit with recomputed row hash", func(t *testing.T) {
		s := seededStore(t, open, 5)
		es, err := s.ListDecisions(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		rec := recordOf(t, es[2])
		rec.body = []byte(string(rec.body[:len(rec.body)-1]) + `,"zz":1}`)
		h, err := chainHash(rec)
		if err != nil {
			t.Fatal(err)
		}
		tamper(t, s, fmt.Sprintf("UPDATE decisions SET body = '%s', hash = '%s' WHERE seq = 3", rec.body, h))
		b := expectBreak(t, s, "recomputed", []BreakKind{BreakLink}, "")
		if b.Seq != 4 {
			t.Errorf("break at %d (%s)", b.Seq, b)
		}
	})
	t.Run("chain head edited", func(t *testing.T) {
		s := seededStore(t, open, 3)
		tamper(t, s, "UPDATE chain_head SET hash = '"+GenesisHash+"'")
		expectBreak(t, s, "head hash", []BreakKind{BreakHead}, "")
	})
	t.Run("chain head deleted", func(t *testing.T) {
		s := seededStore(t, open, 3)
		tamper(t, s, "DELETE FROM chain_head")
		expectBreak(t, s, "head gone", []BreakKind{BreakHead}, "")
		_, err := s.AppendDecision(ctx, mkDecision(time.Now(), "commit", ""))
		if err == nil {
			t.Fatal("append succeeded without a chain head")
		}
	})
})

var _ = contract("append_only_triggers", func(t *testing.T, open opener) {
	ctx := context.Background()
	s := seededStore(t, open, 2)
	for _, q := range []string{
		"UPDATE decisions SET requester = 'x'",
		"DELETE FROM decisions WHERE seq = 2",
		"UPDATE decisions SET gates = '[]'",
		"UPDATE chain_head SET count = 0",
		"DELETE FROM chain_head",
	} {
		if _, err := s.db.SQL.ExecContext(ctx, q); err == nil {
			t.Errorf("%q was allowed", q)
		}
	}
	mustVerify(t, s)
})

// forgeRecord builds a well-formed row for seq that links to the current
// row seq-1, as an attacker who knows the hash algorithm would.
func forgeRecord(t *testing.T, s *Log, seq int64) *Record {
	t.Helper()
	es, err := s.ListDecisions(context.Background(), Filter{})
	if err != nil {
		t.Fatal(err)
	}
	d := mkDecision(time.Now(), "commit", "")
	rec, err := PrepareDecision(d, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	rec.seq, rec.prevHash = seq, es[seq-2].Hash
	if rec.hash, err = chainHash(rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

func insertStmt(rec *Record) string {
	return insertSQL(rec, ", gates", ", '"+mustEncodeGates(rec.gates)+"'")
}

// insertStmtV1 is insertStmt for a schema without the gates column.
func insertStmtV1(rec *Record) string { return insertSQL(rec, "", "") }

// insertSQL inserts rec's columns, and col (", name") with val (", value").
func insertSQL(rec *Record, col, val string) string {
	return fmt.Sprintf(`INSERT INTO decisions (seq, id, time, trigger, task, requester, git_head, exit_code,
		blocked, body, prev_hash, hash%s) VALUES (%d, '%s', '%s', '%s', '%s', '%s', '%s', %d, %d, '%s', '%s', '%s'%s)`,
		col, rec.seq, rec.id, rec.time, rec.trigger, rec.task, rec.requester, rec.gitHead, rec.exitCode,
		sqldb.BoolInt(rec.blocked), rec.body, rec.prevHash, rec.hash, val)
}

func mustEncodeGates(gs []GateVerdict) string {
	s, err := encodeGates(gs)
	if err != nil {
		panic(err)
	}
	return s
}

func recordOf(t *testing.T, e Entry) *Record {
	t.Helper()
	return &Record{seq: e.Seq, id: e.ID, time: sqldb.FormatTime(e.Time), trigger: e.Trigger, task: e.Task,
		requester: e.Requester, gitHead: e.GitHead, exitCode: int64(e.ExitCode), blocked: e.Blocked,
		body: e.Body, gates: e.Gates, prevHash: e.PrevHash, hash: e.Hash}
}
