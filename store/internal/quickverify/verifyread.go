package quickverify

import (
	"github.com/tausik/tausik/store/internal/sqldb"

	"bytes"
	"context"
	"database/sql"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/tausik/tausik/store/internal/sqliteread"
)

// quickReader reads the quick pass's pieces, all from one snapshot of the
// log. Each worker has its own; none is shared between goroutines.
type quickReader interface {
	// counts reads the chain head and the number of decisions.
	counts(ctx context.Context) (quickTotals, bool)
	// decisions calls row for each decision lo <= seq < hi in seq order
	// with its columns other than seq (decisionCols) and its body, until
	// row says false; it is false when it could not read or row stopped.
	// The bytes are the reader's: row reads them only, and before it
	// returns.
	decisions(ctx context.Context, lo, hi int64, row func(seq int64, cols *[11][]byte, body []byte) bool) bool
	// treeCount counts the tree table's rows.
	treeCount(ctx context.Context) (int64, bool)
	// tree reads the stored hashes lo <= idx < hi into out (length hi-lo):
	// false unless there is one row for each idx holding 64 lower-case hex
	// digits.
	tree(ctx context.Context, lo, hi int64, out []tlog.Hash) bool
	close()
}

// decisionCols are the columns the quick pass compares with a decision's
// body, in the order a reader hands them over.
const decisionCols = "id, time, trigger, task, requester, git_head, exit_code, blocked, prev_hash, hash, gates"

// sqliteSnapshot opens n (1 or 2) quick pass readers of s, a SQLite store,
// on one snapshot, through SQLite's C API (sqliteread) rather than
// database/sql: a decision costs a step and a view of SQLite's buffers
// instead of three values copied through the driver (concat_ws and copying
// the bodies were a third of the pass's CPU). Both readers take their first
// read between two readings of PRAGMA data_version on a third connection,
// which differ when any other connection, in any process, committed in
// between: then the snapshots may differ and the first reads alone. It
// needs no write lock, so a store opened read-only reads with two as well
// (not one in a directory it cannot write to: SQLite then cannot share its
// WAL index, the version moves on every read and the first reads alone).
// nil when even one reader cannot be opened: the full pass decides.
func (s source) sqliteSnapshot(ctx context.Context, n int) []quickReader {
	if n < 2 {
		if r, err := s.openDirect(ctx); err == nil {
			return []quickReader{r}
		}
		return nil
	}
	watch, err := sqliteread.Open(s.db.URI, s.db.Memory())
	if err != nil {
		return s.sqliteSnapshot(ctx, 1)
	}
	defer watch.Close()
	before, ok := dataVersion(watch)
	if !ok {
		return s.sqliteSnapshot(ctx, 1)
	}
	first, err := s.openDirect(ctx)
	if err != nil {
		return nil
	}
	second, err := s.openDirect(ctx)
	if err != nil {
		return []quickReader{first}
	}
	if after, ok := dataVersion(watch); !ok || after != before {
		second.close()
		return []quickReader{first}
	}
	return []quickReader{first, second}
}

// dataVersion reads c's PRAGMA data_version.
func dataVersion(c *sqliteread.Conn) (int64, bool) { return queryInt(c, "PRAGMA data_version") }

// oneRow prepares query on c and steps to its first row, for the caller to
// read and close; nil when it cannot or there is no row.
func oneRow(c *sqliteread.Conn, query string) *sqliteread.Stmt {
	st, err := c.Prepare(query)
	if err != nil {
		return nil
	}
	if ok, err := st.Next(); !ok || err != nil {
		st.Close()
		return nil
	}
	return st
}

// queryInt is the integer a one-value query gives.
func queryInt(c *sqliteread.Conn, query string) (int64, bool) {
	st := oneRow(c, query)
	if st == nil {
		return 0, false
	}
	defer st.Close()
	return st.Int64(0)
}

// verifyMmap is the memory map a quick pass reader on a file asks SQLite
// for (SQLite caps it at its compiled maximum): each page is read through
// the map, not copied in by a pread of its own, which was a tenth of the
// pass's CPU. SQLite maps the file read-only and its writers never shrink
// a file under a reader's snapshot; only a file truncated behind SQLite's
// back would fault, as it would hand a reader garbage without the map.
const verifyMmap = 1 << 40

// openDirect opens a reader with its read transaction begun and its
// snapshot taken (by a first read).
func (s source) openDirect(ctx context.Context) (*directReader, error) {
	c, err := sqliteread.Open(s.db.URI, s.db.Memory())
	if err != nil {
		return nil, err
	}
	r := &directReader{c: c}
	setup := []string{
		"PRAGMA query_only = 1",
		"PRAGMA busy_timeout = " + strconv.FormatInt(s.db.Busy.Milliseconds(), 10),
	}
	if !s.db.Memory() {
		setup = append(setup, "PRAGMA mmap_size = "+strconv.Itoa(verifyMmap))
	}
	setup = append(setup, "BEGIN")
	for _, q := range setup {
		if err := c.Exec(q); err != nil {
			r.close()
			return nil, err
		}
	}
	if r.dec, err = c.Prepare(`SELECT seq, ` + decisionCols + `, body FROM decisions WHERE seq >= ? AND seq < ? ORDER BY seq`); err != nil {
		r.close()
		return nil, err
	}
	if r.hashes, err = c.Prepare(`SELECT idx, hash FROM tree_hashes WHERE idx >= ? AND idx < ? ORDER BY idx`); err != nil {
		r.close()
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		r.close()
		return nil, err
	}
	if err := c.Exec("SELECT count FROM chain_head WHERE id = 1"); err != nil { // the first read fixes the snapshot
		r.close()
		return nil, err
	}
	return r, nil
}

// directReader reads a SQLite store through sqliteread, in one read
// transaction.
type directReader struct {
	c           *sqliteread.Conn
	dec, hashes *sqliteread.Stmt
	num         [11][]byte // the integer columns' text, by column
}

// colExitCode and colBlocked are the integer columns' places in
// decisionCols.
const colExitCode, colBlocked = 6, 7

func (r *directReader) close() {
	if r.dec != nil {
		r.dec.Close()
	}
	if r.hashes != nil {
		r.hashes.Close()
	}
	r.c.Close() // ends the read transaction
}

func (r *directReader) counts(ctx context.Context) (quickTotals, bool) {
	st := oneRow(r.c, quickCountsSQL)
	if st == nil {
		return quickTotals{}, false
	}
	defer st.Close()
	count, countOK := st.Int64(0)
	head, headOK := st.Text(1)
	heads, _ := st.Int64(2)
	rows, _ := st.Int64(3)
	return checkCounts(countOK, headOK, count, heads, rows, string(head))
}

func (r *directReader) treeCount(ctx context.Context) (int64, bool) {
	return queryInt(r.c, quickTreeCountSQL)
}

func (r *directReader) decisions(ctx context.Context, lo, hi int64, row func(int64, *[11][]byte, []byte) bool) bool {
	if ctx.Err() != nil || r.dec.Bind(lo, hi) != nil {
		return false
	}
	var cols [11][]byte
	for {
		more, err := r.dec.Next()
		if err != nil {
			return false
		}
		if !more {
			return true
		}
		seq, ok := r.dec.Int64(0)
		if !ok {
			return false
		}
		// Each column in the storage type append writes: text, but for
		// exit_code and blocked, integers. SQLite would spell another
		// (a REAL 5.0 as "5.0") unlike database/sql and the full pass.
		for j := range cols {
			if j == colExitCode || j == colBlocked {
				var v int64
				if v, ok = r.dec.Int64(j + 1); ok {
					r.num[j] = strconv.AppendInt(r.num[j][:0], v, 10)
					cols[j] = r.num[j]
				}
			} else {
				cols[j], ok = r.dec.Text(j + 1)
			}
			if !ok {
				return false
			}
		}
		body, ok := r.dec.Text(len(cols) + 1)
		if !ok || !row(seq, &cols, body) {
			return false
		}
	}
}

func (r *directReader) tree(ctx context.Context, lo, hi int64, out []tlog.Hash) bool {
	if ctx.Err() != nil || r.hashes.Bind(lo, hi) != nil {
		return false
	}
	want := lo
	for {
		more, err := r.hashes.Next()
		if err != nil {
			return false
		}
		if !more {
			return want == hi
		}
		idx, ok := r.hashes.Int64(0)
		if !ok || idx != want {
			return false
		}
		text, ok := r.hashes.Text(1)
		if !ok || !decodeLowerHex(&out[idx-lo], text) {
			return false
		}
		want++
	}
}

// sqlReader reads through database/sql in one read transaction (the
// PostgreSQL store), few values per row: a decision's columns joined by
// concat_ws, the tree's rows, each framed with its idx, in one string per
// run.
type sqlReader struct {
	q    sqldb.Querier
	done func()
}

func (r sqlReader) close() { r.done() }

func (r sqlReader) counts(ctx context.Context) (quickTotals, bool) {
	var count sql.NullInt64
	var head sql.NullString
	var heads, rows int64
	if err := r.q.QueryRowContext(ctx, quickCountsSQL).Scan(&count, &head, &heads, &rows); err != nil {
		return quickTotals{}, false
	}
	return checkCounts(count.Valid, head.Valid, count.Int64, heads, rows, head.String)
}

func (r sqlReader) treeCount(ctx context.Context) (int64, bool) {
	var n int64
	err := r.q.QueryRowContext(ctx, quickTreeCountSQL).Scan(&n)
	return n, err == nil
}

func (r sqlReader) decisions(ctx context.Context, lo, hi int64, row func(int64, *[11][]byte, []byte) bool) bool {
	rows, err := r.q.QueryContext(ctx, quickDecisionsSQL, fieldSep, lo, hi)
	if err != nil {
		return false
	}
	defer rows.Close()
	var f [11][]byte
	for rows.Next() {
		var seq int64
		var cols, text sql.NullString // the driver's own strings: no copy
		var mistyped string
		if err := rows.Scan(&seq, &cols, &text, &mistyped); err != nil || !cols.Valid || !text.Valid || mistyped != "" {
			return false
		}
		rest := ReadOnlyBytes(cols.String)
		for j := range f {
			var found bool
			f[j], rest, found = bytes.Cut(rest, []byte(fieldSep))
			if found != (j < len(f)-1) {
				return false // a separator too few or too many
			}
		}
		if !row(seq, &f, ReadOnlyBytes(text.String)) {
			return false
		}
	}
	return rows.Err() == nil
}

func (r sqlReader) tree(ctx context.Context, lo, hi int64, out []tlog.Hash) bool {
	var text sql.NullString
	if err := r.q.QueryRowContext(ctx, quickTreeSQL, fieldSep, rowSep, lo, hi).Scan(&text); err != nil || !text.Valid {
		return false
	}
	// Each row framed with its idx: a row missing, repeated, relabelled,
	// out of order, split, merged or NULL fails here whatever the schema
	// was edited to.
	rest := text.String
	var frame []byte
	for j := range out {
		if j > 0 {
			if !strings.HasPrefix(rest, rowSep) {
				return false
			}
			rest = rest[len(rowSep):]
		}
		frame = append(strconv.AppendInt(frame[:0], lo+int64(j), 10), fieldSep...)
		if !strings.HasPrefix(rest, string(frame)) || len(rest) < len(frame)+64 ||
			!decodeLowerHex(&out[j], ReadOnlyBytes(rest[len(frame):len(frame)+64])) {
			return false
		}
		rest = rest[len(frame)+64:]
	}
	return rest == ""
}

// decodeLowerHex decodes 64 lower-case hex digits into h: the spelling
// the tree table stores, so any other (upper case, a stray byte) is false.
func decodeLowerHex(h *tlog.Hash, text []byte) bool {
	if len(text) != 2*len(h) {
		return false
	}
	var bad byte
	for i := range h {
		hi, lo := lowerHex[text[2*i]], lowerHex[text[2*i+1]]
		bad |= hi | lo
		h[i] = hi<<4 | lo&0xf
	}
	return bad&0xf0 == 0
}

// lowerHex maps a lower-case hex digit to its value, any other byte to 0xff.
var lowerHex = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i, c := range "0123456789abcdef" {
		t[c] = byte(i)
	}
	return t
}()
