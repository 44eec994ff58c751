package store

import (
	"context"
	"database/sql"
	"encoding/hex"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/tausik/tausik/store/merkle"
)

// The quick pass is what VerifyLog runs first. It makes every check the
// full pass (logPass) makes, reads the log in a few large pieces instead of
// one value at a time, and can only say "intact": at the first thing it does
// not expect — a break, or only an unusual value such as a separator inside
// a column or a body that does not mirror every column — VerifyLog runs the
// full pass, which decides and names the break. So a log is reported intact
// only when both the quick checks pass, and broken exactly as before.
//
// Why pieces: through database/sql and the SQLite driver each value read
// costs more than hashing a kilobyte, and a decision has a dozen values and
// three gate rows of six. The quick pass reads per decision three values
// (seq, body and its other columns joined by concat_ws), and the gate rows
// and tree hashes of a run of decisions as one string each (string_agg).
// concat_ws skips NULLs, which would let a NULL column and a separator in
// the next one keep the field count: joined wraps it so that any NULL makes
// the whole string NULL (a decision's columns then read as not valid, a gate
// row or tree hash drops out of its aggregate and the totals disagree), and
// a value holding a separator shows as an extra field; each sends VerifyLog
// to the full pass.

// quickChunk is the number of decisions whose gate rows one query reads.
const quickChunk = 1024

// quickTreeChunk is the number of tree hashes one query reads.
const quickTreeChunk = 8192

// The aggregates take their order from the primary key SQLite scans; the
// PostgreSQL dialect spells the order out (see postgresDialect). A piece out
// of order fails a quick check, never passes one.
var (
	quickGateRow  = joined("seq", "idx", "name", "outcome", "severity", "blocks")
	quickGatesAgg = `string_agg(` + quickGateRow + `, ?)`
	quickTreeAgg  = `string_agg(` + joined("idx", "hash") + `, ?)`
)

// joined is concat_ws over cols with a ? separator, NULL when any of them is
// NULL (concat_ws alone skips a NULL).
func joined(cols ...string) string {
	return `CASE WHEN ` + strings.Join(cols, ` IS NULL OR `) + ` IS NULL THEN NULL ELSE concat_ws(?, ` + strings.Join(cols, ", ") + `) END`
}

var (
	quickCountsSQL = `SELECT (SELECT count FROM chain_head WHERE id = 1), (SELECT hash FROM chain_head WHERE id = 1),
	(SELECT COUNT(*) FROM chain_head), (SELECT COUNT(*) FROM decisions), (SELECT MIN(seq) FROM decisions),
	(SELECT MAX(seq) FROM decisions), (SELECT COUNT(*) FROM decision_gates), (SELECT COUNT(*) FROM tree_hashes)`
	quickGatesSQL     = `SELECT ` + quickGatesAgg + ` FROM decision_gates WHERE seq >= ? AND seq < ?`
	quickDecisionsSQL = `SELECT seq, body, ` + joined("id", "time", "trigger", "task", "requester", "git_head", "exit_code", "blocked", "prev_hash", "hash") + `
	FROM decisions WHERE seq >= ? AND seq < ? ORDER BY seq`
	quickTreeSQL = `SELECT ` + quickTreeAgg + ` FROM tree_hashes WHERE idx >= ? AND idx < ?`
)

// quickVerifyLog runs the quick pass in a read snapshot of its own. On
// SQLite it reads through two transactions on one snapshot, so the two
// cores both step the database: the second transaction starts while a third
// holds the write lock, so that no commit can fall between the two starts
// (a WAL reader's snapshot is fixed at its first read). Without the write
// lock (a read-only store, a writer holding it) one transaction reads all.
func (s *Store) quickVerifyLog(ctx context.Context) (LogReport, bool) {
	dec, err := s.db.BeginTx(ctx, s.d.readTx)
	if err != nil {
		return LogReport{}, false
	}
	defer dec.Rollback()
	r := quickReaders{dec: conn{dec, s.d}}
	r.aux = r.dec
	if s.d == sqliteDialect && !s.readOnly && s.pin == nil { // a file in WAL mode
		if aux := s.pairedRead(ctx, dec); aux != nil {
			defer aux.Rollback()
			r.aux = conn{aux, s.d}
		}
	}
	return quickPass(ctx, r)
}

// pairedRead returns a read transaction on dec's snapshot, or nil. dec has
// not read yet: both first reads happen under the write lock.
func (s *Store) pairedRead(ctx context.Context, dec *sql.Tx) *sql.Tx {
	lock, err := s.db.BeginTx(ctx, nil) // BEGIN IMMEDIATE (the DSN's _txlock)
	if err != nil {
		return nil
	}
	defer lock.Rollback()
	aux, err := s.db.BeginTx(ctx, s.d.readTx)
	if err != nil {
		return nil
	}
	var n int64
	for _, tx := range []*sql.Tx{dec, aux} {
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM chain_head").Scan(&n); err != nil {
			aux.Rollback()
			return nil
		}
	}
	return aux
}

// decisionPiece is one chunk of decisions as the reader hands it over.
type decisionPiece struct {
	seqs   []int64
	bodies []string
	cols   []string // id … hash of each decision, joined by fieldSep
}

// auxPiece is the gate rows of one chunk, or a run of tree hashes.
type auxPiece struct {
	isTree bool
	text   string // the rows, rowSep between rows, fieldSep between fields
	treeLo int64  // index of a tree run's first hash
}

// quickTotals are the whole-table counts the pieces must add up to.
type quickTotals struct {
	size, gateRows, treeRows int64
	head                     string
}

// quickReaders are the read transactions of the quick pass: decisions are
// read through dec, gate rows and tree hashes through aux, which is either
// a second transaction on the same snapshot (another connection, another
// core) or dec itself.
type quickReaders struct {
	dec, aux querier
}

// quickPass runs the quick pass: a report of an intact log and true,
// or false when the full pass must decide (never an error: whatever the
// quick pass cannot read, the full pass reads and reports).
func quickPass(ctx context.Context, r quickReaders) (LogReport, bool) {
	tot, ok := quickCounts(ctx, r.dec)
	if !ok {
		return LogReport{}, false
	}
	chunks := (tot.size + quickChunk - 1) / quickChunk
	decs, aux := make(chan *decisionPiece, 4), make(chan *auxPiece, 4)
	stop := make(chan struct{})
	readOK := make(chan bool, 2)
	// The readers step the database through the pieces while this
	// goroutine hashes and checks them. On a surprise they are told to stop
	// between statements, not interrupted inside one.
	if r.aux == r.dec {
		go func() {
			defer close(decs)
			defer close(aux)
			ok := true
			for i := int64(0); ok && i < chunks; i++ {
				ok = quickReadGates(ctx, r.aux, i, aux, stop) && quickReadDecisions(ctx, r.dec, i, decs, stop)
			}
			readOK <- ok && quickReadTree(ctx, r.aux, tot, aux, stop)
			readOK <- true
		}()
	} else {
		go func() {
			defer close(decs)
			ok := true
			for i := int64(0); ok && i < chunks; i++ {
				ok = quickReadDecisions(ctx, r.dec, i, decs, stop)
			}
			readOK <- ok
		}()
		go func() {
			defer close(aux)
			ok := true
			for i := int64(0); ok && i < chunks; i++ {
				ok = quickReadGates(ctx, r.aux, i, aux, stop)
			}
			readOK <- ok && quickReadTree(ctx, r.aux, tot, aux, stop)
		}()
	}
	c := quickCheck{prevHash: GenesisHash, tree: &merkle.Builder{}}
	ok = c.run(chunks, decs, aux)
	if !ok {
		close(stop)
	}
	for range decs {
	}
	for range aux {
	}
	if !<-readOK || !<-readOK || !ok || !c.finish(tot) {
		return LogReport{}, false
	}
	root, err := c.tree.Root(tot.size)
	if err != nil {
		return LogReport{}, false
	}
	return LogReport{OK: true, Size: tot.size, Verified: tot.size, Root: root, Head: c.prevHash, tree: c.tree}, true
}

// quickCounts reads the chain head and the tables' sizes. The quick pass
// goes on only for a log whose seq run 1..n, n being the head's count.
func quickCounts(ctx context.Context, q querier) (quickTotals, bool) {
	var heads, rows, gates, tree int64
	var head sql.NullString
	var count, minSeq, maxSeq sql.NullInt64
	err := q.QueryRowContext(ctx, quickCountsSQL).Scan(&count, &head, &heads, &rows, &minSeq, &maxSeq, &gates, &tree)
	if err != nil || heads != 1 || !count.Valid || !head.Valid {
		return quickTotals{}, false
	}
	if rows != count.Int64 || (rows > 0 && (minSeq.Int64 != 1 || maxSeq.Int64 != rows)) {
		return quickTotals{}, false
	}
	return quickTotals{size: rows, gateRows: gates, treeRows: tree, head: head.String}, true
}

// send hands v on, or gives up when the checker has stopped.
func send[T any](out chan<- T, v T, stop <-chan struct{}) bool {
	select {
	case out <- v:
		return true
	case <-stop:
		return false
	}
}

// quickReadGates reads the gate rows of chunk i.
func quickReadGates(ctx context.Context, q querier, i int64, out chan<- *auxPiece, stop <-chan struct{}) bool {
	lo := 1 + i*quickChunk
	p := &auxPiece{}
	var text sql.NullString
	if err := q.QueryRowContext(ctx, quickGatesSQL, fieldSep, rowSep, lo, lo+quickChunk).Scan(&text); err != nil {
		return false
	}
	p.text = text.String
	return send(out, p, stop)
}

// quickReadTree reads the stored tree hashes in runs.
func quickReadTree(ctx context.Context, q querier, tot quickTotals, out chan<- *auxPiece, stop <-chan struct{}) bool {
	n := tlog.StoredHashCount(tot.size)
	for lo := int64(0); lo < n; lo += quickTreeChunk {
		p := &auxPiece{isTree: true, treeLo: lo}
		var text sql.NullString
		err := q.QueryRowContext(ctx, quickTreeSQL, fieldSep, rowSep, lo, min(lo+quickTreeChunk, n)).Scan(&text)
		if err != nil {
			return false
		}
		p.text = text.String
		if !send(out, p, stop) {
			return false
		}
	}
	return true
}

// quickReadDecisions reads the decisions of chunk i.
func quickReadDecisions(ctx context.Context, q querier, i int64, out chan<- *decisionPiece, stop <-chan struct{}) bool {
	lo := 1 + i*quickChunk
	rows, err := q.QueryContext(ctx, quickDecisionsSQL, fieldSep, lo, lo+quickChunk)
	if err != nil {
		return false
	}
	defer rows.Close()
	p := &decisionPiece{}
	for rows.Next() {
		var seq int64
		var body, cols sql.NullString
		if err := rows.Scan(&seq, &body, &cols); err != nil || !body.Valid || !cols.Valid {
			return false
		}
		p.seqs, p.bodies, p.cols = append(p.seqs, seq), append(p.bodies, body.String), append(p.cols, cols.String)
	}
	return rows.Err() == nil && send(out, p, stop)
}

// quickCheck is the checker's state.
type quickCheck struct {
	pos      int64 // decisions checked
	gateRows int64 // gate rows matched to their decisions
	treeRows int64 // tree hashes compared
	prevHash string
	tree     *merkle.Builder
	mirror   fastMirror
	body     []byte
	gates    []GateVerdict
}

// run checks the pieces in order; false at the first surprise.
func (c *quickCheck) run(chunks int64, decs <-chan *decisionPiece, aux <-chan *auxPiece) bool {
	for range chunks {
		d, g := <-decs, <-aux
		if d == nil || g == nil || g.isTree || !c.decisions(d, g) {
			return false
		}
	}
	for t := range aux {
		if !t.isTree || !c.treePiece(t) {
			return false
		}
	}
	return true
}

// decisions checks one chunk: position, link and columns of each decision,
// its gate rows, and its body against them; each body becomes a leaf.
func (c *quickCheck) decisions(p *decisionPiece, g *auxPiece) bool {
	gates := g.text
	var used int64
	// quickCounts found the seq numbers unique and running 1..n, and each
	// chunk comes in seq order: seq is the position.
	for i, seq := range p.seqs {
		c.pos++
		f := strings.Split(p.cols[i], fieldSep)
		if len(f) != 10 {
			return false
		}
		rec := &record{seq: seq, id: f[0], time: f[1], trigger: f[2], task: f[3], requester: f[4], gitHead: f[5],
			prevHash: f[8], hash: f[9]}
		exit, err := strconv.ParseInt(f[6], 10, 64)
		if err != nil || (f[7] != "0" && f[7] != "1") || rec.prevHash != c.prevHash {
			return false
		}
		rec.exitCode, rec.blocked = exit, f[7] == "1"
		var n int
		var ok bool
		if c.gates, gates, n, ok = quickGates(c.gates[:0], gates, seq); !ok {
			return false
		}
		used += int64(n)
		rec.gates = c.gates
		c.body = append(c.body[:0], p.bodies[i]...)
		rec.body = c.body
		if m, complete := c.mirror.quick(rec); m != nil || !complete {
			return false
		}
		if _, err := c.tree.Add(rec.body); err != nil {
			return false
		}
		c.prevHash = rec.hash
	}
	// A gate row left over names none of the chunk's decisions in order;
	// it is missing from the total finish compares.
	c.gateRows += used
	return true
}

// quickGates takes the gate rows of decision seq off the front of rows:
// each must name seq, be numbered from 0 in order and hold a known outcome
// and severity and a blocks of 0 or 1. It returns them appended to out, the
// rows left, how many it took, and false when a row is malformed.
func quickGates(out []GateVerdict, rows string, seq int64) ([]GateVerdict, string, int, bool) {
	prefix := strconv.FormatInt(seq, 10) + fieldSep
	n := 0
	for strings.HasPrefix(rows, prefix) {
		row, rest, _ := strings.Cut(rows[len(prefix):], rowSep)
		f := strings.Split(row, fieldSep)
		if len(f) != 5 || f[0] != strconv.Itoa(n) || (f[4] != "0" && f[4] != "1") {
			return nil, "", 0, false
		}
		g := GateVerdict{Name: f[1], Outcome: Outcome(f[2]), Severity: Severity(f[3]), Blocks: f[4] == "1"}
		if !g.Outcome.Valid() || !g.Severity.Valid() {
			return nil, "", 0, false
		}
		out, rows, n = append(out, g), rest, n+1
	}
	return out, rows, n, true
}

// treePiece compares a run of stored tree hashes, index and value, with the
// tree rebuilt from the bodies (complete by now: the tree comes last).
func (c *quickCheck) treePiece(p *auxPiece) bool {
	want := c.tree.Stored
	var hexHash [2 * tlog.HashSize]byte
	rows := p.text
	j := p.treeLo
	for rows != "" {
		row, rest, _ := strings.Cut(rows, rowSep)
		idx, h, ok := strings.Cut(row, fieldSep)
		if !ok || j >= int64(len(want)) || idx != strconv.FormatInt(j, 10) {
			return false
		}
		hex.Encode(hexHash[:], want[j][:])
		if h != string(hexHash[:]) {
			return false
		}
		rows, j = rest, j+1
	}
	c.treeRows += j - p.treeLo
	return true
}

// finish checks what only the whole log shows: every gate row belonged to
// a decision, the chain head names the last row, and the tree table holds
// exactly the tree's hashes (every one compared, none past them).
func (c *quickCheck) finish(tot quickTotals) bool {
	want := tlog.StoredHashCount(tot.size)
	return c.gateRows == tot.gateRows && c.prevHash == tot.head && c.treeRows == want && tot.treeRows == want
}
