package decisionlog

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/store/internal/quickverify"
	"github.com/tausik/tausik/store/internal/sqldb"
	"golang.org/x/mod/sumdb/tlog"
)

// quickOnly runs the quick pass alone, failing the test unless it vouches
// for the log, and checks that its report is the full pass's.
func quickOnly(t *testing.T, s *Log) LogReport {
	t.Helper()
	ctx := context.Background()
	rep, ok := s.quickVerifyLog(ctx)
	if !ok {
		t.Fatal("the quick pass did not vouch for an intact log: VerifyLog would run the full pass")
	}
	full := fullPass(t, s)
	if !full.OK || rep.Size != full.Size || rep.Verified != full.Verified || rep.Root != full.Root ||
		rep.Head != full.Head || len(rep.tree.Stored) != len(full.tree.Stored) {
		t.Fatalf("quick report %+v differs from the full pass's %+v", rep, full)
	}
	return rep
}

var _ = contract("quick pass vouches for intact logs", func(t *testing.T, open opener) {
	clock := newClock()
	s := open(t, WithClock(clock.Now))
	if rep := quickOnly(t, s); rep.Size != 0 || rep.Head != GenesisHash {
		t.Errorf("empty log: %+v", rep)
	}
	seed(t, s, clock, 3)
	// A decision without gates, and chunks' edges: more than one chunk of
	// gate rows and more than one run of tree hashes.
	if _, err := s.AppendDecision(context.Background(), mkDecision(clock.Now(), "commit", "")); err != nil {
		t.Fatal(err)
	}
	quickOnly(t, s)
	ds := benchDecisions(quickverify.QuickChunk + 7)
	if err := s.db.Write(context.Background(), func(q sqldb.Querier) error {
		for _, d := range ds {
			if _, err := AppendIn(context.Background(), q, time.Now, d); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if rep := quickOnly(t, s); rep.Size != int64(4+len(ds)) {
		t.Errorf("size %d", rep.Size)
	}
})

var _ = contract("quick pass leaves unusual rows to the full pass", func(t *testing.T, open opener) {
	ctx := context.Background()
	for name, edit := range map[string]func(d *Decision){
		// A body that does not mirror every column: the chain hash covers them.
		"minimal body": func(d *Decision) { d.Body = json.RawMessage(`{"note":"minimal"}`) },
		// A mirrored string the body holds escaped: the quick pass compares
		// raw bytes.
		"escaped string": func(d *Decision) {
			var body map[string]any
			if err := json.Unmarshal(d.Body, &body); err != nil {
				t.Fatal(err)
			}
			d.Requester = `mcp:"quoted" client`
			body["requester"] = d.Requester
			d.Body, _ = json.Marshal(body)
		},
		// A gate name the canonical list would escape or keep as UTF-8: the
		// quick pass builds the list for printable ASCII only.
		"non-ASCII gate name": func(d *Decision) {
			*d = mkDecision(d.Time, "commit", "", gateSpec{"größe", OutcomePassed, SeverityBlock})
		},
		// A column holding the quick pass's field separator.
		"separator in a column": func(d *Decision) {
			var body map[string]any
			if err := json.Unmarshal(d.Body, &body); err != nil {
				t.Fatal(err)
			}
			d.GitHead = "ab" + "\x1f" + "cd" // the quick pass's field separator
			body["git_head"] = d.GitHead
			d.Body, _ = json.Marshal(body)
		},
	} {
		t.Run(name, func(t *testing.T) {
			clock := newClock()
			s := open(t, WithClock(clock.Now))
			seed(t, s, clock, 2)
			d := mkDecision(clock.Now(), "commit", "", gateSpec{"g", OutcomePassed, SeverityBlock})
			edit(&d)
			if _, err := s.AppendDecision(ctx, d); err != nil {
				t.Fatal(err)
			}
			if _, ok := s.quickVerifyLog(ctx); ok {
				t.Error("the quick pass vouched for a row it cannot check")
			}
			rep, err := s.VerifyLog(ctx)
			if err != nil || !rep.OK || rep.Size != 3 {
				t.Fatalf("VerifyLog: %+v %v", rep.Break, err)
			}
		})
	}
})

// TestQuickPassWhileAppending verifies while another writer appends: the
// quick pass starts its two readers between appends, or reads with one,
// and must vouch for every log it sees, each of one size. It verifies at
// least 30 times and until it has seen the log grow, or the writer has
// made all its appends (on a loaded machine the writer may be slow to start).
func TestQuickPassWhileAppending(t *testing.T) {
	ctx := context.Background()
	s := openFile(t)
	if _, err := s.AppendDecision(ctx, mkDecision(time.Now(), "commit", "", gateSpec{"g", OutcomePassed, SeverityBlock})); err != nil {
		t.Fatal(err)
	}
	const appends = 300
	stop := make(chan struct{})
	appended := make(chan error, 1)
	go func() {
		for range appends {
			select {
			case <-stop:
				appended <- nil
				return
			default:
			}
			if _, err := s.AppendDecision(ctx, mkDecision(time.Now(), "commit", "", gateSpec{"g", OutcomePassed, SeverityBlock})); err != nil {
				appended <- err
				return
			}
		}
		appended <- nil
	}()
	sizes := map[int64]bool{}
	var writerErr error
	writerDone := false
	for i := 0; i < 30 || (len(sizes) < 2 && !writerDone); i++ {
		rep, ok := s.quickVerifyLog(ctx)
		if !ok || !rep.OK {
			t.Fatal("the quick pass did not vouch for a log being appended to")
		}
		sizes[rep.Size] = true
		select {
		case writerErr = <-appended:
			writerDone = true
		default:
		}
	}
	close(stop)
	if !writerDone {
		writerErr = <-appended
	}
	if writerErr != nil {
		t.Fatal(writerErr)
	}
	if len(sizes) < 2 {
		t.Errorf("no append landed between verifications (sizes %v)", sizes)
	}
}

// Tampering that only one of the log checks sees, each caught by VerifyLog
// (the chain alone misses the last two).
var _ = contract("tamper_seen_by_one_check", func(t *testing.T, open opener) {
	const n = 5
	for _, c := range []struct {
		name   string
		stmts  []string
		kind   BreakKind
		column string
		chain  bool // VerifyChain sees it too
	}{
		{"gates column respelt", []string{`UPDATE decisions SET gates = replace(gates, ',"name":', ', "name":') WHERE seq = 1`},
			BreakContent, gatesColumn, true},
		{"blocked out of range", []string{"UPDATE decisions SET blocked = blocked + 2 WHERE seq = 1"}, BreakContent, "blocked", true},
		{"chain head count raised", []string{"UPDATE chain_head SET count = count + 1 WHERE id = 1"}, BreakTruncated, "", true},
		{"tail cut, head moved, tree left", []string{
			"DELETE FROM decisions WHERE seq = 5",
			"UPDATE chain_head SET count = 4, hash = (SELECT hash FROM decisions WHERE seq = 4) WHERE id = 1",
		}, BreakTruncated, "", false},
		{"last tree hash moved past the end", []string{
			"UPDATE tree_hashes SET idx = idx + 1000 WHERE idx = (SELECT MAX(idx) FROM tree_hashes)",
		}, BreakTree, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := seededStore(t, open, n)
			tamper(t, s, c.stmts...)
			if c.chain {
				expectBreak(t, s, c.name, []BreakKind{c.kind}, c.column)
				return
			}
			rep, err := s.VerifyLog(context.Background())
			if err != nil || rep.OK || rep.Break == nil || rep.Break.Kind != c.kind {
				t.Fatalf("VerifyLog: %+v %v", rep.Break, err)
			}
		})
	}
})

// A NULL column next to a column that gained a separator keeps the quick
// pass's field count (concat_ws skips the NULL): the quick pass must not
// vouch, and VerifyLog must report the break, for a column in the middle and
// for the last one, the gates column. The NOT NULL constraint goes first, as an attacker with
// write access to the database can drop it.
var _ = contract("quick pass does not vouch for a NULL shifted by a separator", func(t *testing.T, open opener) {
	ctx := context.Background()
	for name, c := range map[string]struct{ table, col, next, decl string }{
		"decision column": {"decisions", "task", "requester", "task      TEXT    NOT NULL"},
		"gates column":    {"decisions", "hash", "gates", "hash      TEXT    NOT NULL"},
	} {
		t.Run(name, func(t *testing.T) {
			s := seededStore(t, open, 3)
			sep := "char(31)"
			drop := []string{"PRAGMA writable_schema = ON",
				fmt.Sprintf("UPDATE sqlite_schema SET sql = replace(sql, '%s', '%s') WHERE name = '%s'", c.decl, strings.TrimSuffix(c.decl, " NOT NULL"), c.table),
				"PRAGMA writable_schema = RESET"}
			if s.db.Dialect == sqldb.Postgres {
				sep = "chr(31)"
				drop = []string{fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s DROP NOT NULL", c.table, c.col)}
			}
			tamper(t, s, append(drop, fmt.Sprintf("UPDATE %s SET %s = NULL, %s = %s || %s WHERE seq = 2", c.table, c.col, c.next, c.col, sep+" || "+c.next))...)
			if _, ok := s.quickVerifyLog(ctx); ok {
				t.Error("the quick pass vouched for a log with a NULL column")
			}
			rep, err := s.VerifyLog(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK || rep.Break == nil || rep.Break.Seq != 2 {
				t.Fatalf("VerifyLog: %+v", rep)
			}
		})
	}
})

// The quick pass splits the log into chunks that two workers read apart and
// ties them together afterwards: with chunks of a few decisions, an intact
// log is vouched for at every chunk size, and a break at a chunk's first or
// last decision — where only the tie between chunks can see it — is not.
var _ = contract("quick pass across chunks", func(t *testing.T, open opener) {
	ctx := context.Background()
	const n = 9
	flip := func(col string, seq int) string {
		return fmt.Sprintf("UPDATE decisions SET %[1]s = substr(%[1]s, 1, 63) || (CASE substr(%[1]s, 64) WHEN '0' THEN '1' ELSE '0' END) WHERE seq = %d", col, seq)
	}
	s := seededStore(t, open, n)
	for _, chunk := range []int64{1, 2, 4, n, 2 * n} {
		if rep, ok := s.quickVerify(ctx, chunk); !ok || rep.Size != n {
			t.Errorf("chunks of %d: the quick pass did not vouch for an intact log", chunk)
		}
	}
	for _, c := range []struct {
		name string
		stmt string
		at   int64
	}{
		{"first prev_hash of the second chunk", flip("prev_hash", 5), 5},
		{"last hash of the first chunk", flip("hash", 4), 4},
		{"last hash of the log", flip("hash", n), n},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := seededStore(t, open, n)
			tamper(t, s, c.stmt)
			if _, ok := s.quickVerify(ctx, 4); ok {
				t.Error("the quick pass vouched for a broken link between chunks")
			}
			rep, err := s.VerifyLog(ctx)
			if err != nil || rep.OK || rep.Break.Seq > c.at+1 {
				t.Fatalf("VerifyLog: %+v %v", rep.Break, err)
			}
		})
	}
})

// A head count far beyond the rows, the last row and a tree row moved out
// to match: the quick pass must allocate for the rows it counted, not the
// claimed size (it would run out of memory), and the full pass names the
// break.
var _ = contract("quick pass allocates for the rows it counted, not a claimed size", func(t *testing.T, open opener) {
	ctx := context.Background()
	s := seededStore(t, open, 4)
	const claimed = 1_000_000_000_000
	tamper(t, s, fmt.Sprintf("UPDATE chain_head SET count = %d WHERE id = 1", claimed),
		fmt.Sprintf("UPDATE decisions SET seq = %d WHERE seq = 4", claimed),
		fmt.Sprintf("INSERT INTO tree_hashes (idx, hash) VALUES (%d, '%s')", tlog.StoredHashCount(claimed)-1, strings.Repeat("0", 64)))
	if _, ok := s.quickVerifyLog(ctx); ok {
		t.Fatal("the quick pass vouched for a log whose head claims 10^12 decisions")
	}
	rep, err := s.VerifyLog(ctx)
	if err != nil || rep.OK {
		t.Fatalf("VerifyLog: %+v %v", rep.Break, err)
	}
})

// A row with a NULL seq or idx, the key dropped first: MIN/MAX and the range
// queries skip it (COUNT(*) did not); the full pass rejects the log.
var _ = contract("quick pass sees a row with a NULL key", func(t *testing.T, open opener) {
	ctx := context.Background()
	for name, c := range map[string]struct{ table, key, cols, insert string }{
		"decision": {"decisions", "seq", "seq INTEGER, id TEXT, time TEXT, trigger TEXT, task TEXT, requester TEXT, git_head TEXT, exit_code INTEGER, blocked INTEGER, body TEXT, prev_hash TEXT, hash TEXT, gates TEXT",
			"INSERT INTO decisions SELECT NULL, 'FORGED', time, trigger, task, 'mallory', git_head, exit_code, blocked, body, prev_hash, hash, gates FROM decisions WHERE seq = 2"},
		"tree hash": {"tree_hashes", "idx", "idx INTEGER, hash TEXT", "INSERT INTO tree_hashes VALUES (NULL, 'forged')"},
	} {
		t.Run(name, func(t *testing.T) {
			s := seededStore(t, open, 3)
			if s.db.Dialect == sqldb.Postgres {
				tamper(t, s, "ALTER TABLE "+c.table+" DROP CONSTRAINT "+c.table+"_pkey", "ALTER TABLE "+c.table+" ALTER COLUMN "+c.key+" DROP NOT NULL")
			} else {
				tamper(t, s, "ALTER TABLE "+c.table+" RENAME TO old")
				if _, err := s.db.SQL.Exec("CREATE TABLE " + c.table + " (" + c.cols + ")"); err != nil {
					t.Fatal(err)
				}
				tamper(t, s, "INSERT INTO "+c.table+" SELECT * FROM old", "DROP TABLE old")
			}
			tamper(t, s, c.insert)
			var full LogReport
			fullErr := s.db.Read(ctx, func(q sqldb.Querier) (err error) { full, err = fullVerifyLog(ctx, q); return err })
			if fullErr == nil && full.OK {
				t.Fatal("precondition: the full pass rejects the row")
			}
			if rep, err := s.VerifyLog(ctx); err == nil && rep.OK {
				t.Errorf("VerifyLog says intact; the full pass: %v %v", full.Break, fullErr)
			}
		})
	}
})

// A mirrored column retyped to REAL: SQLite's text of it is "5.0", what
// database/sql reads (and the full pass compares) is "5".
func TestQuickPassReadsStorageTypes(t *testing.T) {
	clock := newClock()
	s := openFile(t, WithClock(clock.Now))
	seed(t, s, clock, 2)
	mustAppend(t, s, mkDecision(clock.Now(), "5.0", ""))
	tamper(t, s, "ALTER TABLE decisions RENAME TO old")
	if _, err := s.db.SQL.Exec(`CREATE TABLE decisions (seq INTEGER PRIMARY KEY, id TEXT, time TEXT, trigger, task TEXT, requester TEXT,
		git_head TEXT, exit_code INTEGER, blocked INTEGER, body TEXT, prev_hash TEXT, hash TEXT, gates TEXT)`); err != nil {
		t.Fatal(err)
	}
	tamper(t, s, "INSERT INTO decisions SELECT * FROM old", "DROP TABLE old", "UPDATE decisions SET trigger = 5.0 WHERE seq = 3")
	if fullPass(t, s).OK {
		t.Fatal("precondition: the full pass sees the retyped column")
	}
	if rep, err := s.VerifyLog(context.Background()); err != nil || rep.OK {
		t.Errorf("VerifyLog says intact (%v) while the full pass reports a break", err)
	}
}
