// Package quickverify is `log verify`'s quick pass, the fast path beside
// the decision log's full pass (store/internal/decisionlog), which is its
// reference: it reads the log's tables below database/sql, knows none of
// the log's types, and only ever vouches for an intact log (Verify); on
// anything else the log's VerifyLog runs the full pass, which decides and
// names the break. The log's tests hold the two to the same reports.
package quickverify

import (
	"github.com/tausik/tausik/store/internal/sqldb"

	"bytes"
	"context"
	"crypto/sha256"
	"hash"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/tausik/tausik/store/merkle"
)

// The quick pass is what VerifyLog runs first. It makes every check the
// full pass (logPass) makes, reads the log in few values, and can only say
// "intact": on anything it does not expect — a break, or only an
// unusual value such as a separator inside a column, an escaped string in a
// mirrored field or a body that does not mirror every column — VerifyLog
// runs the full pass, which decides and names the break. So a log is
// reported intact only when both the quick checks pass, and broken exactly
// as before.
//
// Why its own readers: through database/sql and the SQLite driver each
// value read is copied and costs more than hashing a kilobyte. On SQLite
// the quick pass reads through SQLite's C API (verifyread.go): a decision
// is one step and views of SQLite's buffers, checked where it was read
// (ScanBody, the columns byte for byte, the leaf hash). On a file store two
// workers, on two transactions of one snapshot, take chunks of decisions
// and then runs of the tree table from one counter, so both cores work to
// the end. PostgreSQL reads through database/sql in few values per row
// (sqlReader): concat_ws skips NULLs, which would let a NULL column and a
// separator in the next one keep the field count: joined wraps it so that
// any NULL makes the whole string NULL, and a value holding a separator
// shows as an extra field; both send VerifyLog to the full pass.

// QuickChunk is the number of decisions one query reads.
const QuickChunk = 4096

// quickTreeChunk is the number of tree hashes one query reads.
const quickTreeChunk = 8192

// joined is concat_ws over cols with a ? separator, NULL when any of them is
// NULL (concat_ws alone skips a NULL).
func joined(cols ...string) string {
	return `CASE WHEN ` + strings.Join(cols, ` IS NULL OR `) + ` IS NULL THEN NULL ELSE concat_ws(?, ` + strings.Join(cols, ", ") + `) END`
}

// fieldSep, the ASCII unit separator, joins the quick pass's columns (bound
// as a parameter); a value holding one shows as an extra field.
const fieldSep = "\x1f"

// rowSep, the ASCII record separator, ends each tree row in quickTreeSQL.
const rowSep = "\x1e"

var (
	// COUNT(*) counts every row, NULL keys too, which the readers' ranges
	// skip: with every seq and idx of the ranges read in order, the counts
	// leave no row outside them. SQLite counts the decisions through their
	// smallest index; the tree table, which has none, is counted while the
	// readers read (quickTreeCountSQL).
	quickCountsSQL = `SELECT (SELECT count FROM chain_head WHERE id = 1), (SELECT hash FROM chain_head WHERE id = 1),
	(SELECT COUNT(*) FROM chain_head), (SELECT COUNT(*) FROM decisions)`
	quickTreeCountSQL = `SELECT COUNT(*) FROM tree_hashes`
	quickDecisionsSQL = `SELECT d.Seq, ` + joined(strings.Split(decisionCols, ", ")...) +
		`, d.Body, ` + sqldb.MistypedSQL + ` FROM decisions d WHERE d.Seq >= ? AND d.Seq < ? ORDER BY d.Seq`
	quickTreeSQL = `SELECT string_agg(` + joined("idx", "hash") + `, ? ORDER BY idx) FROM tree_hashes WHERE idx >= ? AND idx < ?`
)

// Report is what the quick pass vouches for: an intact log of Size
// decisions whose tree, rebuilt from the stored bodies, has root Root, and
// whose last row's chain hash is Head.
type Report struct {
	Size int64
	Root tlog.Hash
	Head string
	Tree *merkle.Builder
}

// Verify runs the quick pass over db in a read snapshot of its own: on a
// SQLite file two readers on one snapshot, so the two cores both step the
// database; otherwise one reader reads all. False: the full pass must
// decide.
func Verify(ctx context.Context, db *sqldb.DB) (Report, bool) {
	return VerifyChunked(ctx, db, QuickChunk)
}

// VerifyChunked is Verify reading chunk decisions per statement.
func VerifyChunked(ctx context.Context, db *sqldb.DB, chunk int64) (Report, bool) {
	return source{db}.quickVerify(ctx, chunk)
}

// source is the database the quick pass reads.
type source struct{ db *sqldb.DB }

// quickVerify is VerifyChunked.
func (s source) quickVerify(ctx context.Context, chunk int64) (Report, bool) {
	var readers []quickReader
	if s.db.Dialect == sqldb.SQLite {
		n := 2
		if s.db.Memory() {
			n = 1 // an in-memory store: tests, which need no second core
		}
		readers = s.sqliteSnapshot(ctx, n)
	} else if tx, err := s.db.SQL.BeginTx(ctx, s.db.Dialect.ReadTx); err == nil {
		readers = []quickReader{sqlReader{q: sqldb.Conn{Q: tx, D: s.db.Dialect}, done: func() { tx.Rollback() }}}
	}
	if readers == nil {
		return Report{}, false
	}
	defer func() {
		for _, r := range readers {
			r.close()
		}
	}()
	return quickPass(ctx, readers, chunk)
}

// quickTotals are what the pieces must add up to: the log's size (the
// chain head's count), its tree's number of stored hashes and its head.
type quickTotals struct {
	size, treeRows int64
	head           string
}

// chunkLinks are a checked chunk's ends: the first decision's prev_hash and
// the last one's hash, which tie it to its neighbours.
type chunkLinks struct{ firstPrev, lastHash string }

// quickPass runs the quick pass over readers of one snapshot: a report of
// an intact log and true, or false when the full pass must decide (never an
// error: whatever the quick pass cannot read, the full pass reads and
// reports).
func quickPass(ctx context.Context, readers []quickReader, chunk int64) (Report, bool) {
	tot, ok := readers[0].counts(ctx)
	if !ok {
		return Report{}, false
	}
	chunks := (tot.size + chunk - 1) / chunk
	q := &quickPlan{
		tot: tot, chunk: chunk, chunks: chunks, treeRuns: (tot.treeRows + quickTreeChunk - 1) / quickTreeChunk,
		leaves: make([]tlog.Hash, tot.size), links: make([]chunkLinks, chunks), stored: make([]tlog.Hash, tot.treeRows),
		finished: make(chan int64, chunks), // room for all: a worker never waits on it
	}
	var wg sync.WaitGroup
	for _, r := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q.work(ctx, r)
		}()
	}
	go func() {
		wg.Wait()
		close(q.finished)
	}()
	b, ok := q.grow()
	if !ok {
		return Report{}, false
	}
	return q.report(b)
}

// quickPlan is one quick pass: its totals, its chunks of decisions and runs
// of the tree table, and what the workers share.
type quickPlan struct {
	tot                     quickTotals
	chunk, chunks, treeRuns int64
	leaves                  []tlog.Hash
	links                   []chunkLinks
	stored                  []tlog.Hash
	finished                chan int64 // the chunks read, in any order
	// The workers take tasks in turn from one counter: the chunks of
	// decisions first, then the runs of the tree table and its count, so
	// both stay busy to the end.
	task, treeCount atomic.Int64
	failed          atomic.Bool
}

// work is one worker: it takes tasks until none is left or one failed.
func (q *quickPlan) work(ctx context.Context, r quickReader) {
	var k quickWorker
	for !q.failed.Load() {
		i := q.task.Add(1) - 1
		switch {
		case i < q.chunks:
			if !k.chunk(ctx, r, i*q.chunk, min(q.chunk, q.tot.size-i*q.chunk), q.leaves, &q.links[i]) {
				q.failed.Store(true)
				return
			}
			q.finished <- i
		case i < q.chunks+q.treeRuns:
			lo := (i - q.chunks) * quickTreeChunk
			hi := min(lo+quickTreeChunk, q.tot.treeRows)
			if !r.tree(ctx, lo, hi, q.stored[lo:hi]) {
				q.failed.Store(true)
			}
		case i == q.chunks+q.treeRuns:
			n, ok := r.treeCount(ctx)
			if !ok {
				q.failed.Store(true)
			}
			q.treeCount.Store(n)
		default:
			return
		}
	}
}

// grow builds the tree from the leaves of each run of chunks done in
// order, while the workers read on; false when a worker failed or a chunk
// was never read.
func (q *quickPlan) grow() (*merkle.Builder, bool) {
	b := &merkle.Builder{}
	b.Grow(q.tot.size)
	done := make([]bool, q.chunks)
	next := int64(0)
	for i := range q.finished {
		done[i] = true
		for ; next < q.chunks && done[next]; next++ {
			for _, leaf := range q.leaves[next*q.chunk : min((next+1)*q.chunk, q.tot.size)] {
				if err := b.AddHash(leaf); err != nil {
					q.failed.Store(true)
				}
			}
		}
	}
	return b, !q.failed.Load() && next == q.chunks
}

// report checks that the chunks link into one chain ending at the head, and
// that the tree table holds what the leaves make: the report of an intact
// log and true, else false.
func (q *quickPlan) report(b *merkle.Builder) (Report, bool) {
	head := sqldb.GenesisHash
	for _, l := range q.links {
		if l.firstPrev != head {
			return Report{}, false
		}
		head = l.lastHash
	}
	if head != q.tot.head || q.treeCount.Load() != q.tot.treeRows || !slices.Equal(b.Stored, q.stored) {
		return Report{}, false
	}
	root, err := b.Root(q.tot.size)
	if err != nil {
		return Report{}, false
	}
	return Report{Size: q.tot.size, Root: root, Head: head, Tree: b}, true
}

// checkCounts makes the totals of the chain head's count and hash (each
// false when NULL), the number of head rows and of decisions. The quick
// pass goes on only for a log with one head row and as many decisions as
// its count; the readers check that they run from seq 1 without a gap.
func checkCounts(countOK, headOK bool, count, heads, rows int64, head string) (quickTotals, bool) {
	if heads != 1 || !countOK || !headOK || rows != count {
		return quickTotals{}, false
	}
	return quickTotals{size: count, treeRows: tlog.StoredHashCount(count), head: head}, true
}

// quickWorker checks chunks of decisions; its buffers are reused.
type quickWorker struct {
	sha    hash.Hash // its own, reset for each leaf
	fields BodyFields
	Gates  []byte // the gates column the body's gate list encodes to
	num    []byte // the exit code's text
	when   []byte // the time column's text
	hasher RowHasher
}

// chunk reads and checks the n decisions after the first skip: each row's
// position, its link to the row before within the chunk, its columns
// against its body; each body's leaf goes into leaves.
func (k *quickWorker) chunk(ctx context.Context, r quickReader, skip, n int64, leaves []tlog.Hash, out *chunkLinks) bool {
	lo, hi := skip+1, skip+1+n
	want := lo
	var prev []byte
	ok := r.decisions(ctx, lo, hi, func(seq int64, cols *[11][]byte, body []byte) bool {
		if seq != want {
			return false
		}
		prevHash, hash, ok := k.row(seq, cols, body)
		switch {
		case !ok:
			return false
		case seq == lo:
			out.firstPrev = string(prevHash)
		case !bytes.Equal(prevHash, prev):
			return false
		}
		prev = append(prev[:0], hash...)
		k.leaf(&leaves[seq-1], body)
		want++
		return true
	})
	out.lastHash = string(prev)
	return ok && want == hi
}

// leaf sets h to the leaf hash of body, tlog.RecordHash's, on the worker's
// own digest.
func (k *quickWorker) leaf(h *tlog.Hash, body []byte) {
	if k.sha == nil {
		k.sha = sha256.New()
	}
	k.sha.Reset()
	k.sha.Write([]byte{0})
	k.sha.Write(body)
	k.sha.Sum(h[:0])
}

// row checks one decision's columns (decisionCols) against its body and its
// hash against the one recomputed from them, and returns its prev_hash and
// hash, or false at anything unexpected.
func (k *quickWorker) row(seq int64, f *[11][]byte, body []byte) (prevHash, hash []byte, ok bool) {
	b := &k.fields
	if !ScanBody(body, b) {
		return nil, nil, false
	}
	k.num = strconv.AppendInt(k.num[:0], b.ExitCode, 10)
	if !bytes.Equal(f[0], b.ID) || !bytes.Equal(f[2], b.Trigger) || !bytes.Equal(f[3], b.Task) ||
		!bytes.Equal(f[4], b.Requester) || !bytes.Equal(f[5], b.GitHead) || !bytes.Equal(f[6], k.num) ||
		string(f[7]) != blockedText(b.Blocked) ||
		!k.sameTime(b.Time, f[1]) || !k.encodeGates(b.Gates) || !bytes.Equal(f[10], k.Gates) {
		return nil, nil, false
	}
	sum, ok := k.hasher.Hash(&RowFields{Seq: seq, ExitCode: b.ExitCode, Blocked: b.Blocked,
		ID: f[0], Time: f[1], Trigger: f[2], Task: f[3], Requester: f[4], GitHead: f[5],
		Body: body, PrevHash: f[8], Gates: f[10]})
	if !ok || !bytes.Equal(sum, f[9]) {
		return nil, nil, false
	}
	return f[8], f[9], true
}

// sameTime is the package's sameTime, formatting into the worker's buffer.
func (k *quickWorker) sameTime(body, column []byte) bool {
	var ok bool
	k.when, ok = AppendColumnTime(k.when[:0], string(body))
	return ok && bytes.Equal(k.when, column)
}

// encodeGates writes the gates column a body's gate list encodes to, the
// way encodeGates does, for lists whose text needs no escape (printable
// ASCII, which ScanBody's strings without a backslash are but for bytes
// from 0x80); anything else, or an unknown outcome or severity, is false.
func (k *quickWorker) encodeGates(gs []BodyGate) bool {
	out := append(k.Gates[:0], '[')
	for i, g := range gs {
		if !ascii(g.Name) || !knownOutcome(g.Outcome) || !knownSeverity(g.Severity) {
			return false
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, `{"blocks":`...)
		out = strconv.AppendBool(out, g.Blocks)
		out = append(append(append(out, `,"name":"`...), g.Name...), `","outcome":"`...)
		out = append(append(append(out, g.Outcome...), `","severity":"`...), g.Severity...)
		out = append(out, `"}`...)
	}
	k.Gates = append(out, ']')
	return true
}

func ascii(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// knownOutcome reports whether o is one of the log's outcomes; one the
// quick pass does not know sends VerifyLog to the full pass, which decides.
func knownOutcome(o []byte) bool {
	switch string(o) {
	case "PASSED", "FAILED", "NOT_APPLICABLE", "COULD_NOT_RUN":
		return true
	}
	return false
}

// knownSeverity reports whether s is one of the log's severities.
func knownSeverity(s []byte) bool { return string(s) == "block" || string(s) == "warn" }

// blockedText is the blocked column's text as concat_ws gives it.
func blockedText(blocked bool) string {
	if blocked {
		return "1"
	}
	return "0"
}

// ReadOnlyBytes is s's bytes without a copy, for reading only: the quick
// pass scans and hashes 124 MB of bodies per 100,000 decisions, and a copy
// of each was a tenth of its time in memmove.
func ReadOnlyBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
