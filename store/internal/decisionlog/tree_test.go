package decisionlog

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/tausik/tausik/store/internal/sqldb"
	"github.com/tausik/tausik/store/merkle"
)

// Tamper tests against checkpoints: the attacker of these tests can rewrite
// anything in the database, tree and chain head included; only a checkpoint
// taken before (here an unsigned tree head; signatures are merkle's tests)
// catches them.

func head(t *testing.T, s *Log) TreeHead {
	t.Helper()
	th, err := s.TreeHead(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return th
}

// against verifies the log and checks it against the given tree heads.
func against(t *testing.T, s *Log, heads ...TreeHead) (LogReport, []merkle.AnchorResult) {
	t.Helper()
	rep, err := s.VerifyLog(context.Background())
	if err != nil {
		t.Fatalf("VerifyLog: %v", err)
	}
	var as []merkle.Anchor
	for i, h := range heads {
		as = append(as, merkle.Anchor{Name: fmt.Sprintf("cp%d", i),
			Opened: merkle.Opened{Checkpoint: merkle.Checkpoint{Origin: "test", Size: h.Size, Root: h.Root}}})
	}
	res, err := merkle.CheckAnchors(rep.Tree(), as)
	if err != nil {
		t.Fatalf("CheckAnchors: %v", err)
	}
	return rep, res
}

// caught fails unless the log is reported broken or the anchor fails.
func caught(t *testing.T, s *Log, cp TreeHead) (LogReport, merkle.AnchorResult) {
	t.Helper()
	rep, res := against(t, s, cp)
	if rep.OK && res[0].Kind == merkle.AnchorOK {
		t.Fatal("tampering not caught against the checkpoint")
	}
	return rep, res[0]
}

var _ = contract("tree_head_follows_appends", func(t *testing.T, open opener) {
	s := seededStore(t, open, 1)
	var heads []TreeHead
	var b merkle.Builder
	es, _ := s.ListDecisions(context.Background(), Filter{})
	if _, err := b.Add(es[0].Body); err != nil {
		t.Fatal(err)
	}
	heads = append(heads, head(t, s))
	for i := 2; i <= 9; i++ {
		d := mkDecision(time.Date(2026, 3, 2, 0, 0, i, 0, time.UTC), "commit", "")
		a := mustAppend(t, s, d)
		e, err := s.GetDecision(context.Background(), d.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Add(e.Body); err != nil {
			t.Fatal(err)
		}
		th := head(t, s)
		want, _ := b.Root(int64(i))
		if th.Size != a.Seq || th.Root != want {
			t.Fatalf("after %d appends: head %d %v, want %d %v", i, th.Size, th.Root, i, want)
		}
		heads = append(heads, th)
	}
	rep, res := against(t, s, heads...)
	if !rep.OK {
		t.Fatalf("honest log broken: %v", rep.Break)
	}
	for _, r := range res {
		if r.Kind != merkle.AnchorOK {
			t.Fatalf("honest append broke checkpoint %s: %s %s", r.Name, r.Kind, r.Detail)
		}
	}
})

var _ = contract("tamper_caught_against_checkpoint", func(t *testing.T, open opener) {
	t.Run("every column of every row", func(t *testing.T) {
		for _, row := range []int{1, 3, 5} {
			for _, set := range []string{
				"id = '" + sqldb.NewID(time.Unix(1, 0)) + "'", "time = '2030-01-01T00:00:00.000000000Z'",
				"trigger = 'review'", "task = 'sneaky'", "requester = 'mcp:evil'", "git_head = 'ffff'",
				"exit_code = exit_code + 1", "blocked = 1 - blocked", "body = body || ' '",
				"prev_hash = '" + GenesisHash[:63] + "1'", "hash = '" + GenesisHash[:63] + "1'",
			} {
				s := seededStore(t, open, 5)
				cp := head(t, s)
				tamper(t, s, fmt.Sprintf("UPDATE decisions SET %s WHERE seq = %d", set, row))
				rep, _ := caught(t, s, cp)
				if rep.OK || rep.Break.Seq > int64(row)+1 {
					t.Errorf("row %d %s: report %+v", row, set, rep.Break)
				}
			}
			s := seededStore(t, open, 5)
			cp := head(t, s)
			tamper(t, s, fmt.Sprintf(`UPDATE decisions SET gates = replace(replace(gates, '"filesize","outcome":"PASSED"', '"filesize","outcome":"NOT_APPLICABLE"'), '"filesize","outcome":"FAILED"', '"filesize","outcome":"NOT_APPLICABLE"') WHERE seq = %d`, row))
			if rep, _ := caught(t, s, cp); rep.OK || rep.Break.Seq != int64(row) {
				t.Errorf("row %d gate outcome: %+v", row, rep.Break)
			}
		}
	})
	for _, tc := range []struct {
		name string
		seq  int
		at   int64
		kind BreakKind
	}{{"delete first", 1, 2, BreakMissing}, {"delete middle", 3, 4, BreakMissing}, {"delete last", 5, 5, BreakTruncated}} {
		t.Run(tc.name, func(t *testing.T) {
			s := seededStore(t, open, 5)
			cp := head(t, s)
			tamper(t, s, fmt.Sprintf("DELETE FROM decisions WHERE seq = %d", tc.seq))
			rep, res := caught(t, s, cp)
			if rep.OK || rep.Break.Kind != tc.kind || rep.Break.Seq != tc.at {
				t.Errorf("report %+v", rep.Break)
			}
			if res.Kind == merkle.AnchorOK {
				t.Errorf("checkpoint still ok after a deletion")
			}
		})
	}
	t.Run("insert", func(t *testing.T) {
		s := seededStore(t, open, 5)
		cp := head(t, s)
		rec := forgeRecord(t, s, 3)
		stmts := []string{"UPDATE decisions SET seq = -(seq + 1) WHERE seq >= 3", "UPDATE decisions SET seq = -seq WHERE seq < 0"}
		tamper(t, s, append(stmts, insertStmt(rec))...)
		if rep, res := caught(t, s, cp); rep.OK || res.Kind != merkle.AnchorRewritten {
			t.Errorf("insert: %+v, anchor %s", rep.Break, res.Kind)
		}
	})
	t.Run("swap", func(t *testing.T) {
		s := seededStore(t, open, 5)
		cp := head(t, s)
		tamper(t, s, "UPDATE decisions SET seq = -2 WHERE seq = 2",
			"UPDATE decisions SET seq = 2 WHERE seq = 3", "UPDATE decisions SET seq = 3 WHERE seq = -2")
		rep, res := caught(t, s, cp)
		if rep.OK || rep.Break.Seq != 2 || res.Kind != merkle.AnchorRewritten {
			t.Errorf("swap: %+v, anchor %s", rep.Break, res.Kind)
		}
	})
	t.Run("tree hash edited", func(t *testing.T) {
		s := seededStore(t, open, 5)
		cp := head(t, s)
		// Index 2 is the interior hash over leaves 0 and 1.
		tamper(t, s, "UPDATE tree_hashes SET hash = '"+GenesisHash+"' WHERE idx = 2")
		rep, res := caught(t, s, cp)
		if rep.OK || rep.Break.Kind != BreakTree || rep.Break.Seq != 1 || res.Kind != merkle.AnchorOK {
			t.Errorf("tree edit: %+v, anchor %s", rep.Break, res.Kind)
		}
	})
})

// truncateTo deletes every decision after seq n with its tree hashes and moves the chain head back: the database is then a consistent,
// shorter log.
func truncateTo(t *testing.T, s *Log, n int64) {
	t.Helper()
	var hash string
	if err := s.db.Conn().QueryRowContext(context.Background(), "SELECT hash FROM decisions WHERE seq = ?", n).Scan(&hash); err != nil {
		t.Fatal(err)
	}
	tamper(t, s, fmt.Sprintf("DELETE FROM decisions WHERE seq > %d", n),
		fmt.Sprintf("DELETE FROM tree_hashes WHERE idx >= %d", tlog.StoredHashCount(n)),
		fmt.Sprintf("UPDATE chain_head SET count = %d, hash = '%s'", n, hash))
}

var _ = contract("rewritten_tail_caught_only_by_checkpoint", func(t *testing.T, open opener) {
	t.Run("truncate and rewrite the head", func(t *testing.T) {
		s := seededStore(t, open, 6)
		cp := head(t, s)
		truncateTo(t, s, 3)
		rep, res := caught(t, s, cp)
		if !rep.OK {
			t.Fatalf("the truncated log should look intact on its own: %v", rep.Break)
		}
		if res.Kind != merkle.AnchorTruncated || res.First != 4 || res.Last != 6 {
			t.Errorf("anchor %s %d..%d: %s", res.Kind, res.First, res.Last, res.Detail)
		}
	})
	t.Run("truncate and append forged rows", func(t *testing.T) {
		s := seededStore(t, open, 6)
		early := head(t, s) // an earlier checkpoint at size 6…
		for i := range 2 {
			mustAppend(t, s, mkDecision(time.Date(2026, 4, 1, 0, 0, i, 0, time.UTC), "commit", "", gateSpec{"g", OutcomePassed, SeverityBlock}))
		}
		cp := head(t, s) // …and the newest at 8
		truncateTo(t, s, 7)
		for i := range 3 {
			mustAppend(t, s, mkDecision(time.Date(2026, 5, 1, 0, 0, i, 0, time.UTC), "commit", "forged"))
		}
		rep, res := against(t, s, early, cp)
		if !rep.OK {
			t.Fatalf("the forged log should look intact on its own: %v", rep.Break)
		}
		if res[0].Kind != merkle.AnchorOK {
			t.Errorf("the early checkpoint should still match: %s %s", res[0].Kind, res[0].Detail)
		}
		if res[1].Kind != merkle.AnchorRewritten || res[1].First != 7 || res[1].Last != 8 {
			t.Errorf("newest anchor %s %d..%d: %s", res[1].Kind, res[1].First, res[1].Last, res[1].Detail)
		}
	})
	t.Run("whole log rebuilt with one edited decision", func(t *testing.T) {
		orig := open(t)
		forged := open(t)
		var heads []TreeHead
		for i := range 5 {
			d := mkDecision(time.Date(2026, 6, 1, 0, 0, i, 0, time.UTC), "commit", "")
			mustAppend(t, orig, d)
			if i == 2 {
				d = mkDecision(time.Date(2026, 6, 1, 0, 0, i, 0, time.UTC), "commit", "edited")
			}
			mustAppend(t, forged, d)
			heads = append(heads, head(t, orig))
		}
		rep, res := against(t, forged, heads[1], heads[4])
		if !rep.OK {
			t.Fatalf("the rebuilt log should look intact on its own: %v", rep.Break)
		}
		if res[0].Kind != merkle.AnchorOK || res[1].Kind != merkle.AnchorRewritten || res[1].First != 3 || res[1].Last != 5 {
			t.Errorf("anchors %+v", res)
		}
	})
	t.Run("two checkpoints of one size fork", func(t *testing.T) {
		a, b := seededStore(t, open, 3), open(t)
		mustAppend(t, b, mkDecision(time.Now(), "commit", ""))
		mustAppend(t, b, mkDecision(time.Now(), "commit", ""))
		mustAppend(t, b, mkDecision(time.Now(), "commit", ""))
		_, res := against(t, a, head(t, a), head(t, b))
		if res[0].Kind != merkle.AnchorFork || res[1].Kind != merkle.AnchorFork {
			t.Errorf("fork not reported: %+v", res)
		}
	})
})

func TestMigrationBackfillsTree(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "tausik.db")
	db := rawDB(t, p)
	ms, err := sqldb.MigrationsIn("migrations")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ms[0].SQL + "; PRAGMA user_version = 1"); err != nil {
		t.Fatal(err)
	}
	// Rows written the way version 1 wrote them: chain only, no tree.
	prev := GenesisHash
	var b merkle.Builder
	for i := range 7 {
		rec, err := PrepareDecision(mkDecision(time.Date(2026, 1, 1, 0, 0, i, 0, time.UTC), "commit", "", gateSpec{"g", OutcomePassed, SeverityBlock}), time.Now)
		if err != nil {
			t.Fatal(err)
		}
		rec.seq, rec.prevHash = int64(i+1), prev
		if rec.hash, err = chainHash(rec); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{insertStmtV1(rec),
			fmt.Sprintf("INSERT INTO decision_gates VALUES (%d, 0, 'g', 'PASSED', 'block', 0)", rec.seq),
			fmt.Sprintf("UPDATE chain_head SET count = %d, hash = '%s'", rec.seq, rec.hash)} {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		prev = rec.hash
		b.Add(rec.body)
	}
	db.Close()
	s, err := Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, _ := s.db.Dialect.ReadVersion(ctx, s.db.Conn()); v != sqldb.LatestVersion() {
		t.Fatalf("user_version %d", v)
	}
	if rep := mustVerify(t, s); rep.Rows != 7 {
		t.Fatalf("%d rows", rep.Rows)
	}
	want, _ := b.Root(7)
	if th := head(t, s); th.Size != 7 || th.Root != want {
		t.Fatalf("backfilled head %d %v, want 7 %v", th.Size, th.Root, want)
	}
	mustAppend(t, s, mkDecision(time.Now(), "commit", ""))
	mustVerify(t, s)
}
