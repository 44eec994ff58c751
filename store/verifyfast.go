package store

import (
	"bytes"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
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
// "intact": at the first thing it does not expect — a break, or only an
// unusual value such as a separator inside a column, an escaped string in a
// mirrored field or a body that does not mirror every column — VerifyLog
// runs the full pass, which decides and names the break. So a log is
// reported intact only when both the quick checks pass, and broken exactly
// as before.
//
// Why few values: through database/sql and the SQLite driver each value
// read costs more than hashing a kilobyte. The quick pass reads per
// decision three values (seq, its other columns joined by concat_ws, the
// body), checks each body where it was read (scanBody, the columns byte for
// byte, the leaf hash) and reads the tree table 8,192 rows per string. On a
// file store two workers, on two transactions of one snapshot, take chunks
// of decisions and then runs of the tree table from one counter, so both
// cores work to the end.
// concat_ws skips NULLs, which would let a NULL column and a separator in
// the next one keep the field count: joined wraps it so that any NULL makes
// the whole string NULL, and a value holding a separator shows as an extra
// field; both send VerifyLog to the full pass.

// quickChunk is the number of decisions one query reads.
const quickChunk = 4096

// quickTreeChunk is the number of tree hashes one query reads.
const quickTreeChunk = 8192

// The tree aggregate takes its order from the primary key SQLite scans; the
// PostgreSQL dialect spells the order out (see postgresDialect). Each row
// comes framed with its idx: a row that is missing, repeated, relabelled,
// out of order, split, merged or NULL fails a quick check.
var quickTreeAgg = `string_agg(` + joined("idx", "hash") + `, ?)`

// rowSep, the ASCII record separator, ends each tree row in quickTreeAgg.
const rowSep = "\x1e"

// joined is concat_ws over cols with a ? separator, NULL when any of them is
// NULL (concat_ws alone skips a NULL).
func joined(cols ...string) string {
	return `CASE WHEN ` + strings.Join(cols, ` IS NULL OR `) + ` IS NULL THEN NULL ELSE concat_ws(?, ` + strings.Join(cols, ", ") + `) END`
}

var (
	quickCountsSQL = `SELECT (SELECT count FROM chain_head WHERE id = 1), (SELECT hash FROM chain_head WHERE id = 1),
	(SELECT COUNT(*) FROM chain_head), (SELECT COUNT(*) FROM decisions), (SELECT MIN(seq) FROM decisions),
	(SELECT MAX(seq) FROM decisions), (SELECT COUNT(*) FROM tree_hashes)`
	quickDecisionsSQL = `SELECT seq, ` + joined("id", "time", "trigger", "task", "requester", "git_head", "exit_code",
		"blocked", "prev_hash", "hash", "gates") + `, body FROM decisions WHERE seq >= ? AND seq < ? ORDER BY seq`
	quickTreeSQL = `SELECT ` + quickTreeAgg + ` FROM tree_hashes WHERE idx >= ? AND idx < ?`
)

// quickVerifyLog runs the quick pass in a read snapshot of its own. On a
// SQLite file it reads through two transactions on one snapshot, so the two
// cores both step the database (see pairedRead); otherwise one transaction
// reads all.
func (s *Store) quickVerifyLog(ctx context.Context) (LogReport, bool) {
	return s.quickVerify(ctx, quickChunk)
}

// quickVerify is quickVerifyLog reading chunk decisions per statement.
func (s *Store) quickVerify(ctx context.Context, chunk int64) (LogReport, bool) {
	file := s.d == sqliteDialect && s.pin == nil
	dec, done, err := s.verifyTx(ctx, file)
	if err != nil {
		return LogReport{}, false
	}
	defer done()
	readers := []querier{conn{dec, s.d}}
	if file {
		if aux, done := s.pairedRead(ctx, dec); aux != nil {
			defer done()
			readers = append(readers, conn{aux, s.d})
		}
	}
	return quickPass(ctx, readers, chunk)
}

// verifyMmap is the memory map a quick pass reader on a file asks SQLite
// for (SQLite caps it at its compiled maximum): each page is read through
// the map, not copied in by a pread of its own, which was a tenth of the
// pass's CPU. SQLite maps the file read-only and its writers never shrink
// a file under a reader's snapshot; only a file truncated behind SQLite's
// back would fault, as it would hand a reader garbage without the map.
const verifyMmap = 1 << 40

// verifyTx begins a read transaction for the quick pass, on a connection
// of its own with the file mapped when mapped is set, and returns the
// function that ends it and puts the connection back as it was.
func (s *Store) verifyTx(ctx context.Context, mapped bool) (*sql.Tx, func(), error) {
	if !mapped {
		tx, err := s.db.BeginTx(ctx, s.d.readTx)
		if err != nil {
			return nil, nil, err
		}
		return tx, func() { tx.Rollback() }, nil
	}
	c, err := s.db.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	release := func() {
		// A connection left mapped goes back to the pool only as a bad one,
		// which the pool discards.
		if _, err := c.ExecContext(context.WithoutCancel(ctx), "PRAGMA mmap_size = 0"); err != nil {
			c.Raw(func(any) error { return driver.ErrBadConn })
		}
		c.Close()
	}
	if _, err := c.ExecContext(ctx, "PRAGMA mmap_size = "+strconv.Itoa(verifyMmap)); err != nil {
		release()
		return nil, nil, err
	}
	tx, err := c.BeginTx(ctx, s.d.readTx)
	if err != nil {
		release()
		return nil, nil, err
	}
	return tx, func() { tx.Rollback(); release() }, nil
}

// pairedRead returns a second read transaction on dec's snapshot and the
// function that ends it, or nil. dec has not read yet, and a transaction's
// snapshot is fixed at its first read: both first reads happen between two
// readings of PRAGMA data_version on a third connection, which differ when
// any other connection, in any process, committed in between — then the
// snapshots may differ and dec reads alone. It needs no write lock, so a
// read-only store reads with two workers too.
func (s *Store) pairedRead(ctx context.Context, dec *sql.Tx) (*sql.Tx, func()) {
	watch, err := s.db.Conn(ctx)
	if err != nil {
		return nil, nil
	}
	defer watch.Close()
	var before, after int64
	if err := watch.QueryRowContext(ctx, "PRAGMA data_version").Scan(&before); err != nil {
		return nil, nil
	}
	aux, done, err := s.verifyTx(ctx, true)
	if err != nil {
		return nil, nil
	}
	var n int64
	for _, tx := range []*sql.Tx{dec, aux} {
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM chain_head").Scan(&n); err != nil {
			done()
			return nil, nil
		}
	}
	if err := watch.QueryRowContext(ctx, "PRAGMA data_version").Scan(&after); err != nil || after != before {
		done()
		return nil, nil
	}
	return aux, done
}

// quickTotals are the whole-table counts the pieces must add up to.
type quickTotals struct {
	size, treeRows int64
	head           string
}

// chunkLinks are a checked chunk's ends: the first decision's prev_hash and
// the last one's hash, which tie it to its neighbours.
type chunkLinks struct{ firstPrev, lastHash string }

// quickPass runs the quick pass over readers, transactions on one snapshot:
// a report of an intact log and true, or false when the full pass must
// decide (never an error: whatever the quick pass cannot read, the full
// pass reads and reports).
func quickPass(ctx context.Context, readers []querier, chunk int64) (LogReport, bool) {
	tot, ok := quickCounts(ctx, readers[0])
	if !ok {
		return LogReport{}, false
	}
	chunks := (tot.size + chunk - 1) / chunk
	treeRuns := (tlog.StoredHashCount(tot.size) + quickTreeChunk - 1) / quickTreeChunk
	leaves := make([]tlog.Hash, tot.size)
	links := make([]chunkLinks, chunks)
	tree := make([]string, treeRuns)
	finished := make(chan int64, chunks) // room for all: a worker never waits on it
	// The workers take tasks in turn from one counter: the chunks of
	// decisions first, then the runs of the tree table, so both stay busy
	// to the end.
	var task atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for _, q := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var k quickWorker
			for !failed.Load() {
				i := task.Add(1) - 1
				switch {
				case i < chunks:
					if !k.chunk(ctx, q, i*chunk, min(chunk, tot.size-i*chunk), leaves, &links[i]) {
						failed.Store(true)
						return
					}
					finished <- i
				case i < chunks+treeRuns:
					var ok bool
					if tree[i-chunks], ok = quickReadTree(ctx, q, i-chunks, tot.size); !ok {
						failed.Store(true)
					}
				default:
					return
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(finished)
	}()
	// The tree grows here from the leaves of each run of chunks done in
	// order, while the workers read on.
	b := &merkle.Builder{}
	b.Grow(tot.size)
	done := make([]bool, chunks)
	next := int64(0)
	for i := range finished {
		done[i] = true
		for ; next < chunks && done[next]; next++ {
			for _, leaf := range leaves[next*chunk : min((next+1)*chunk, tot.size)] {
				if err := b.AddHash(leaf); err != nil {
					failed.Store(true)
				}
			}
		}
	}
	if failed.Load() || next != chunks {
		return LogReport{}, false
	}
	head := GenesisHash
	for _, l := range links {
		if l.firstPrev != head {
			return LogReport{}, false
		}
		head = l.lastHash
	}
	if head != tot.head || int64(len(b.Stored)) != tot.treeRows || !sameTree(b.Stored, tree) {
		return LogReport{}, false
	}
	root, err := b.Root(tot.size)
	if err != nil {
		return LogReport{}, false
	}
	return LogReport{OK: true, Size: tot.size, Verified: tot.size, Root: root, Head: head, tree: b}, true
}

// quickCounts reads the chain head and the tables' sizes. The quick pass
// goes on only for a log whose seq run 1..n, n being the head's count.
func quickCounts(ctx context.Context, q querier) (quickTotals, bool) {
	var heads, rows, tree int64
	var head sql.NullString
	var count, minSeq, maxSeq sql.NullInt64
	err := q.QueryRowContext(ctx, quickCountsSQL).Scan(&count, &head, &heads, &rows, &minSeq, &maxSeq, &tree)
	if err != nil || heads != 1 || !count.Valid || !head.Valid {
		return quickTotals{}, false
	}
	if rows != count.Int64 || (rows > 0 && (minSeq.Int64 != 1 || maxSeq.Int64 != rows)) {
		return quickTotals{}, false
	}
	return quickTotals{size: rows, treeRows: tree, head: head.String}, true
}

// quickReadTree reads run i of the stored tree hashes of a log of size
// decisions, its rows as one string.
func quickReadTree(ctx context.Context, q querier, i, size int64) (string, bool) {
	lo := i * quickTreeChunk
	var text sql.NullString
	err := q.QueryRowContext(ctx, quickTreeSQL, fieldSep, rowSep, lo, min(lo+quickTreeChunk, tlog.StoredHashCount(size))).Scan(&text)
	return text.String, err == nil
}

// sameTree compares the rebuilt tree's hashes with the runs as read: row j
// must be j, fieldSep, its hash in lower-case hex, every row ending in
// rowSep but the last of a run.
func sameTree(want []tlog.Hash, runs []string) bool {
	var enc []byte
	j := 0
	for _, run := range runs {
		for first := true; run != ""; first, j = false, j+1 {
			if !first {
				if run[0] != rowSep[0] {
					return false
				}
				run = run[1:]
			}
			if j >= len(want) {
				return false
			}
			enc = strconv.AppendInt(enc[:0], int64(j), 10)
			enc = append(enc, fieldSep...)
			enc = hex.AppendEncode(enc, want[j][:])
			if !strings.HasPrefix(run, string(enc)) {
				return false
			}
			run = run[len(enc):]
		}
	}
	return j == len(want)
}

// quickWorker checks chunks of decisions; its buffers are reused.
type quickWorker struct {
	fields bodyFields
	gates  []byte // the gates column the body's gate list encodes to
	num    []byte // the exit code's text
	when   []byte // the time column's text
}

// chunk reads and checks the n decisions after the first skip: each row's
// position, its link to the row before within the chunk, its columns
// against its body; each body's leaf goes into leaves.
func (k *quickWorker) chunk(ctx context.Context, q querier, skip, n int64, leaves []tlog.Hash, out *chunkLinks) bool {
	lo, hi := skip+1, skip+1+n
	rows, err := q.QueryContext(ctx, quickDecisionsSQL, fieldSep, lo, hi)
	if err != nil {
		return false
	}
	defer rows.Close()
	want := lo
	var prev []byte
	for rows.Next() {
		var seq int64
		var cols, text sql.NullString // the driver's own strings: no copy
		if err := rows.Scan(&seq, &cols, &text); err != nil || seq != want || !cols.Valid || !text.Valid {
			return false
		}
		body := readOnlyBytes(text.String)
		prevHash, hash, ok := k.row(readOnlyBytes(cols.String), body)
		switch {
		case !ok:
			return false
		case seq == lo:
			out.firstPrev = string(prevHash)
		case !bytes.Equal(prevHash, prev):
			return false
		}
		prev = append(prev[:0], hash...)
		leaves[seq-1] = tlog.RecordHash(body)
		want++
	}
	out.lastHash = string(prev)
	return rows.Err() == nil && want == hi
}

// row checks one decision's joined columns against its body and returns
// its prev_hash and hash, or false at anything unexpected.
func (k *quickWorker) row(cols, body []byte) (prevHash, hash []byte, ok bool) {
	var f [11][]byte // id, time, trigger, task, requester, git_head, exit_code, blocked, prev_hash, hash, gates
	rest := cols
	for j := range f {
		var found bool
		f[j], rest, found = bytes.Cut(rest, []byte(fieldSep))
		if found != (j < len(f)-1) {
			return nil, nil, false // a separator too few or too many
		}
	}
	b := &k.fields
	if !scanBody(body, b) {
		return nil, nil, false
	}
	k.num = strconv.AppendInt(k.num[:0], b.exitCode, 10)
	if !bytes.Equal(f[0], b.id) || !bytes.Equal(f[2], b.trigger) || !bytes.Equal(f[3], b.task) ||
		!bytes.Equal(f[4], b.requester) || !bytes.Equal(f[5], b.gitHead) || !bytes.Equal(f[6], k.num) ||
		string(f[7]) != blockedText(b.blocked) ||
		!k.sameTime(b.time, f[1]) || !k.encodeGates(b.gates) || !bytes.Equal(f[10], k.gates) {
		return nil, nil, false
	}
	return f[8], f[9], true
}

// sameTime is the package's sameTime, formatting into the worker's buffer.
func (k *quickWorker) sameTime(body, column []byte) bool {
	var ok bool
	k.when, ok = appendColumnTime(k.when[:0], string(body))
	return ok && bytes.Equal(k.when, column)
}

// encodeGates writes the gates column a body's gate list encodes to, the
// way encodeGates does, for lists whose text needs no escape (printable
// ASCII, which scanBody's strings without a backslash are but for bytes
// from 0x80); anything else, or an unknown outcome or severity, is false.
func (k *quickWorker) encodeGates(gs []bodyGate) bool {
	out := append(k.gates[:0], '[')
	for i, g := range gs {
		if !ascii(g.name) || !Outcome(string(g.outcome)).Valid() || !Severity(string(g.severity)).Valid() {
			return false
		}
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, `{"blocks":`...)
		out = strconv.AppendBool(out, g.blocks)
		out = append(append(append(out, `,"name":"`...), g.name...), `","outcome":"`...)
		out = append(append(append(out, g.outcome...), `","severity":"`...), g.severity...)
		out = append(out, `"}`...)
	}
	k.gates = append(out, ']')
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

// blockedText is the blocked column's text as concat_ws gives it.
func blockedText(blocked bool) string {
	if blocked {
		return "1"
	}
	return "0"
}

// readOnlyBytes is s's bytes without a copy, for reading only: the quick
// pass scans and hashes 124 MB of bodies per 100,000 decisions, and a copy
// of each was a tenth of its time in memmove.
func readOnlyBytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}
