package decisionlog

import (
	"github.com/tausik/tausik/store/internal/quickverify"
	"github.com/tausik/tausik/store/internal/sqldb"

	"context"
	"database/sql"
	"fmt"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/tausik/tausik/store/merkle"
)

// BreakTree: a stored interior hash of the Merkle tree is not the hash of
// its children recomputed from the stored bodies, or the tree lacks hashes
// or holds more: the tree table itself was edited.
const BreakTree BreakKind = "tree_changed"

// LogReport is the outcome of VerifyLog. Like ChainReport, a broken log is a
// report, not an error.
type LogReport struct {
	OK       bool
	Size     int64       // decisions in the log, in seq order
	Verified int64       // decisions verified intact before the first break (Size when OK)
	Root     tlog.Hash   // tree head over all Size decisions, recomputed from their stored bodies
	Head     string      // the last row's chain hash
	Break    *ChainBreak // the first problem; nil when OK
	tree     *merkle.Builder
}

// Tree is the tree recomputed from the bodies as they are stored now (never
// read from the tree table, which whoever edits the log can rewrite too),
// for checking checkpoints with merkle.CheckAnchors; nil when no
// verification ran.
func (r LogReport) Tree() merkle.Tree {
	if r.tree == nil {
		return nil
	}
	return r.tree
}

// VerifyLog checks the whole log in one read snapshot, as fast as the bodies
// can be hashed: every body's leaf hash is recomputed from its stored bytes
// (never re-encoded) and the whole tree rebuilt and compared with the stored
// hashes, leaf and interior; the seq numbers must run 1..n, every row's
// prev_hash must be the previous row's hash and the chain head must name the
// last; and every column, the gate list included, must agree with its body
// (a body that does not carry a column has that row's chain hash recomputed
// instead).
// A quick pass (quickverify.Verify) makes these checks first, reading the log in
// large pieces on both cores; only when it cannot vouch for the log does the
// full pass below run, row by row, and on a break the full VerifyChain too,
// to name the row and column the way it does.
//
// What the tree adds over the chain shows against a checkpoint kept outside
// the database: the root of Tree() at its size must equal its root (merkle.CheckAnchors).
func (s *Log) VerifyLog(ctx context.Context) (LogReport, error) {
	q, ok := quickverify.Verify(ctx, s.db)
	rep := LogReport{OK: true, Size: q.Size, Verified: q.Size, Root: q.Root, Head: q.Head, tree: q.Tree}
	if !ok {
		err := s.db.Read(ctx, func(q sqldb.Querier) error {
			var err error
			rep, err = fullVerifyLog(ctx, q)
			return err
		})
		if err != nil {
			return LogReport{}, fmt.Errorf("verify log: %w", err)
		}
	}
	return rep, nil
}

// logPass is the state of one pass over the decisions.
type logPass struct {
	rep      LogReport
	breakPos int64 // 1-based position of the row the break is reported at
	prevHash string
	mirror   fastMirror
	hasher   quickverify.RowHasher
}

// fail records the break found at position pos (1-based) when it is the
// earliest; on a tie the one found first (the row's own) wins. The pass goes
// on after a break so the whole tree is rebuilt for Tree.
func (p *logPass) fail(b *ChainBreak, pos int64) {
	if p.rep.Break == nil || pos < p.breakPos {
		p.rep.Break, p.breakPos = b, pos
	}
}

// fullVerifyLog is the pass that finds and names the first break; VerifyLog
// runs it when the quick pass cannot vouch for the log.
func fullVerifyLog(ctx context.Context, q sqldb.Querier) (LogReport, error) {
	p := &logPass{prevHash: GenesisHash, rep: LogReport{tree: &merkle.Builder{}}}
	var err error
	// One goroutine steps SQLite through the decisions and then the tree
	// table while this one hashes and checks: on two cores the pass takes
	// about as long as reading alone. Only the reader uses q until done.
	batches, free := make(chan *rowBatch, 4), make(chan *rowBatch, 4)
	var stored storedHashes
	done := make(chan error, 1)
	go func() {
		defer close(batches)
		err := readRows(ctx, q, batches, free)
		if err == nil {
			stored, err = readStoredHashes(ctx, q)
		}
		done <- err
	}()
	var lastSeq int64
	var addErr error
	for b := range batches {
		for i := range b.recs {
			rec := &b.recs[i]
			if _, err := p.rep.tree.Add(rec.body); err != nil && addErr == nil {
				addErr = err
			}
			p.row(rec, b.blocked[i], b.gates[i], b.mistyped[i])
			lastSeq = rec.seq
		}
		select {
		case free <- b:
		default:
		}
	}
	if err := <-done; err != nil {
		if stored.err {
			return LogReport{}, err
		}
		return p.slow(ctx, q, err)
	}
	if addErr != nil {
		return LogReport{}, addErr
	}
	p.rep.Size, p.rep.Head = p.rep.tree.Size(), p.prevHash
	if b, err := checkHead(ctx, q, lastSeq, p.prevHash); err != nil {
		return LogReport{}, err
	} else if b != nil {
		p.fail(b, p.rep.Size+1)
	}
	p.compareTree(stored)
	if p.rep.Root, err = p.rep.tree.Root(p.rep.Size); err != nil {
		return LogReport{}, err
	}
	if p.rep.Break == nil {
		p.rep.OK, p.rep.Verified = true, p.rep.Size
		return p.rep, nil
	}
	return p.explain(ctx, q)
}

// rowsQuery reads each decision, its gates column included.
var rowsQuery = `SELECT d.seq, d.id, d.time, d.trigger, d.task, d.requester, d.git_head,
	d.exit_code, d.blocked, d.body, d.prev_hash, d.hash, d.gates, ` + sqldb.MistypedSQL + `
	FROM decisions d ORDER BY d.seq`

// rowBatch is a run of decision rows handed from the reader to the checker;
// the bodies live in buf so a batch costs a few allocations, not one per row.
type rowBatch struct {
	recs     []Record
	blocked  []int64
	gates    []string
	mistyped []string // sqldb.MistypedSQL's column
	buf      []byte
}

const batchRows = 256

func readRows(ctx context.Context, q sqldb.Querier, out, free chan *rowBatch) error {
	rows, err := q.QueryContext(ctx, rowsQuery)
	if err != nil {
		return err
	}
	defer rows.Close()
	var b *rowBatch
	ends := make([]int, 0, batchRows)
	flush := func() {
		start := 0
		for i, end := range ends {
			b.recs[i].body = b.buf[start:end:end]
			start = end
		}
		out <- b
		b, ends = nil, ends[:0]
	}
	for rows.Next() {
		if b == nil {
			select {
			case b = <-free:
				b.recs, b.blocked, b.gates, b.mistyped, b.buf = b.recs[:0], b.blocked[:0], b.gates[:0], b.mistyped[:0], b.buf[:0]
			default:
				b = &rowBatch{recs: make([]Record, 0, batchRows), blocked: make([]int64, 0, batchRows),
					gates: make([]string, 0, batchRows), mistyped: make([]string, 0, batchRows)}
			}
		}
		b.recs = append(b.recs, Record{})
		rec := &b.recs[len(b.recs)-1]
		var blocked int64
		var body sql.RawBytes
		var gates, mistyped string
		if err := rows.Scan(&rec.seq, &rec.id, &rec.time, &rec.trigger, &rec.task, &rec.requester, &rec.gitHead,
			&rec.exitCode, &blocked, &body, &rec.prevHash, &rec.hash, &gates, &mistyped); err != nil {
			return err
		}
		rec.blocked = blocked == 1
		b.blocked, b.gates, b.mistyped = append(b.blocked, blocked), append(b.gates, gates), append(b.mistyped, mistyped)
		b.buf = append(b.buf, body...)
		ends = append(ends, len(b.buf))
		if len(b.recs) == batchRows {
			flush()
		}
	}
	if b != nil {
		flush()
	}
	return rows.Err()
}

// storedHashes is the tree table as read, in index order.
type storedHashes struct {
	idx    []int64
	hashes []string
	err    bool // reading it failed (an I/O error, not a damaged row)
}

func readStoredHashes(ctx context.Context, q sqldb.Querier) (storedHashes, error) {
	st := storedHashes{err: true}
	rows, err := q.QueryContext(ctx, "SELECT idx, hash FROM tree_hashes ORDER BY idx")
	if err != nil {
		return st, err
	}
	defer rows.Close()
	for rows.Next() {
		var idx int64
		var h string
		if err := rows.Scan(&idx, &h); err != nil {
			return st, err
		}
		st.idx, st.hashes = append(st.idx, idx), append(st.hashes, h)
	}
	st.err = false
	return st, rows.Err()
}

// row checks one decision's position, link, gate list and columns;
// mistyped names a column stored in another type than append writes.
func (p *logPass) row(rec *Record, blocked int64, gates, mistyped string) {
	pos := p.rep.tree.Size() // 1-based position of this row
	defer func() { p.prevHash = rec.hash }()
	if p.rep.Break != nil {
		return
	}
	switch {
	case mistyped != "":
		p.fail(&ChainBreak{Kind: BreakContent, Seq: rec.seq, ID: rec.id, Column: mistyped,
			Detail: "not stored as the text or integer the log writes"}, pos)
		return
	case rec.seq != pos:
		p.fail(&ChainBreak{Kind: BreakMissing, Seq: rec.seq, ID: rec.id,
			Detail: fmt.Sprintf("the decision at position %d has seq %d", pos, rec.seq)}, pos)
		return
	case rec.prevHash != p.prevHash:
		p.fail(&ChainBreak{Kind: BreakLink, Seq: rec.seq, ID: rec.id, Detail: "prev_hash is not the previous row's hash"}, pos)
		return
	case blocked != 0 && blocked != 1:
		p.fail(&ChainBreak{Kind: BreakContent, Seq: rec.seq, ID: rec.id, Column: "blocked", Detail: "not 0 or 1"}, pos)
		return
	}
	var bad *mismatch
	if rec.gates, bad = decodeGates(gates); bad != nil {
		p.fail(&ChainBreak{Kind: BreakContent, Seq: rec.seq, ID: rec.id, Column: bad.column, Detail: bad.detail}, pos)
		return
	}
	m, _ := p.mirror.check(rec)
	if m == nil && !hashMatches(&p.hasher, rec, gates) {
		// Every row's hash is recomputed, whether or not its body mirrors
		// every column: a stored hash is never taken on trust.
		m = &mismatch{"", "row content no longer matches its hash"}
	}
	if m != nil {
		p.fail(&ChainBreak{Kind: BreakContent, Seq: rec.seq, ID: rec.id, Column: m.column, Detail: m.detail}, pos)
	}
}

// compareTree compares the stored tree hashes, in index order, with the
// tree rebuilt from the bodies.
func (p *logPass) compareTree(stored storedHashes) {
	want := p.rep.tree.Stored
	for j, idx := range stored.idx {
		if j >= len(want) {
			p.fail(&ChainBreak{Kind: BreakTruncated, Seq: p.rep.Size + 1,
				Detail: fmt.Sprintf("the tree holds hashes past the log's %d decisions: decisions after seq %d were deleted", p.rep.Size, p.rep.Size)},
				p.rep.Size+1)
			return
		}
		h, herr := parseHexHash(stored.hashes[j])
		if idx != int64(j) || herr != nil || h != want[j] {
			b := treeBreak(int64(j), idx != int64(j))
			p.fail(b, b.Seq)
			return
		}
	}
	if len(stored.idx) < len(want) {
		b := treeBreak(int64(len(stored.idx)), true)
		p.fail(b, b.Seq)
	}
}

// treeBreak describes a stored hash at index j that is wrong or missing; its
// Seq is the position of the first decision under that node, which is its
// seq as long as no row break came before.
func treeBreak(j int64, missing bool) *ChainBreak {
	level, n := tlog.SplitStoredHashIndex(j)
	first := n<<uint(level) + 1 // seq of the first decision under that node
	if missing {
		return &ChainBreak{Kind: BreakTree, Seq: first, Detail: fmt.Sprintf("tree hash %d (level %d) is missing", j, level)}
	}
	if level == 0 {
		return &ChainBreak{Kind: BreakContent, Seq: first, Column: "body",
			Detail: "the body no longer hashes to its tree leaf"}
	}
	return &ChainBreak{Kind: BreakTree, Seq: first,
		Detail: fmt.Sprintf("stored tree hash %d (level %d, over seq %d..%d) is not its children's hash",
			j, level, first, first+1<<uint(level)-1)}
}

// explain runs the full chain verification on a broken log and reports its
// break when it is at or before the tree's: it names columns, renumbered and
// reordered rows.
func (p *logPass) explain(ctx context.Context, q sqldb.Querier) (LogReport, error) {
	chain, err := verifyChain(ctx, q)
	if err != nil {
		return LogReport{}, err
	}
	if chain.Break != nil && chain.Break.Seq <= p.rep.Break.Seq {
		p.rep.Break = chain.Break
	}
	p.rep.Verified = max(p.rep.Break.Seq-1, 0)
	return p.rep, nil
}

// slow reports a log the typed fast pass cannot even read (a column holding
// a value of another type) through the full chain verification, with the
// tree rebuilt from the bodies as they read.
func (p *logPass) slow(ctx context.Context, q sqldb.Querier, cause error) (LogReport, error) {
	chain, err := verifyChain(ctx, q)
	if err != nil {
		return LogReport{}, err
	}
	if chain.Break == nil {
		return LogReport{}, cause
	}
	rep := LogReport{Verified: chain.Rows, Break: chain.Break}
	if rep.tree, err = buildTree(ctx, q); err != nil {
		return LogReport{}, err
	}
	rep.Size = rep.tree.Size()
	rep.Root, err = rep.tree.Root(rep.Size)
	return rep, err
}
