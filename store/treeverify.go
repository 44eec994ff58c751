package store

import (
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
// last; and every column and gate row must agree with its body (a body that
// does not carry a column has that row's chain hash recomputed instead). On
// a break, the full VerifyChain also runs, to name the row and column the
// way it does.
//
// What the tree adds over the chain shows against a checkpoint kept outside
// the database: the root of Tree() at its size must equal its root (merkle.CheckAnchors).
func (s *Store) VerifyLog(ctx context.Context) (LogReport, error) {
	var rep LogReport
	err := s.read(ctx, func(q querier) error {
		var err error
		rep, err = verifyLog(ctx, q)
		return err
	})
	if err != nil {
		return LogReport{}, fmt.Errorf("verify log: %w", err)
	}
	return rep, nil
}

type gateRow struct {
	seq, idx int64
	g        GateVerdict
}

func readGateRows(ctx context.Context, q querier) ([]gateRow, error) {
	rows, err := q.QueryContext(ctx, "SELECT seq, idx, name, outcome, severity, blocks FROM decision_gates ORDER BY seq, idx")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []gateRow
	for rows.Next() {
		var r gateRow
		var outcome, severity string
		var blocks int64
		if err := rows.Scan(&r.seq, &r.idx, &r.g.Name, &outcome, &severity, &blocks); err != nil {
			return nil, err
		}
		r.g.Outcome, r.g.Severity, r.g.Blocks = Outcome(outcome), Severity(severity), blocks == 1
		if blocks != 0 && blocks != 1 {
			r.idx = -1 // never matches a position: reported as a damaged gate row
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// logPass is the state of one pass over the decisions.
type logPass struct {
	rep      LogReport
	breakPos int64 // 1-based position of the row the break is reported at
	gates    []gateRow
	gi       int
	prevHash string
	mirror   fastMirror
}

// fail records the break found at position pos (1-based) when it is the
// earliest; on a tie the one found first (the row's own) wins. The pass goes
// on after a break so the whole tree is rebuilt for Tree.
func (p *logPass) fail(b *ChainBreak, pos int64) {
	if p.rep.Break == nil || pos < p.breakPos {
		p.rep.Break, p.breakPos = b, pos
	}
}

func verifyLog(ctx context.Context, q querier) (LogReport, error) {
	p := &logPass{prevHash: GenesisHash, rep: LogReport{tree: &merkle.Builder{}}}
	var err error
	if p.gates, err = readGateRows(ctx, q); err != nil {
		return p.slow(ctx, q, err)
	}
	rows, err := q.QueryContext(ctx, `SELECT seq, id, time, trigger, task, requester, git_head,
		exit_code, blocked, body, prev_hash, hash FROM decisions ORDER BY seq`)
	if err != nil {
		return LogReport{}, err
	}
	var lastSeq int64
	for rows.Next() {
		rec := &record{}
		var blocked int64
		var body sql.RawBytes
		if err := rows.Scan(&rec.seq, &rec.id, &rec.time, &rec.trigger, &rec.task, &rec.requester, &rec.gitHead,
			&rec.exitCode, &blocked, &body, &rec.prevHash, &rec.hash); err != nil {
			rows.Close()
			return p.slow(ctx, q, err)
		}
		rec.blocked, rec.body = blocked == 1, body
		if _, err := p.rep.tree.Add(body); err != nil {
			rows.Close()
			return LogReport{}, err
		}
		p.row(rec, blocked)
		lastSeq = rec.seq
	}
	if err := rows.Close(); err != nil {
		return LogReport{}, err
	}
	if err := rows.Err(); err != nil {
		return p.slow(ctx, q, err)
	}
	p.rep.Size, p.rep.Head = p.rep.tree.Size(), p.prevHash
	if p.gi < len(p.gates) {
		p.fail(&ChainBreak{Kind: BreakContent, Seq: p.gates[p.gi].seq, Column: "decision_gates",
			Detail: "gate rows belong to a decision that is not in the log"}, p.rep.Size+1)
	}
	if b, err := checkHead(ctx, q, lastSeq, p.prevHash); err != nil {
		return LogReport{}, err
	} else if b != nil {
		p.fail(b, p.rep.Size+1)
	}
	if err := p.compareTree(ctx, q); err != nil {
		return LogReport{}, err
	}
	if p.rep.Root, err = p.rep.tree.Root(p.rep.Size); err != nil {
		return LogReport{}, err
	}
	if p.rep.Break == nil {
		p.rep.OK, p.rep.Verified = true, p.rep.Size
		return p.rep, nil
	}
	return p.explain(ctx, q)
}

// row checks one decision's position, link, gate rows and columns.
func (p *logPass) row(rec *record, blocked int64) {
	pos := p.rep.tree.Size() // 1-based position of this row
	defer func() { p.prevHash = rec.hash }()
	if p.rep.Break != nil {
		return
	}
	switch {
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
	if p.gi < len(p.gates) && p.gates[p.gi].seq < rec.seq {
		p.fail(&ChainBreak{Kind: BreakContent, Seq: p.gates[p.gi].seq, Column: "decision_gates",
			Detail: "gate rows belong to a decision that is not in the log"}, pos)
		return
	}
	start := p.gi
	for p.gi < len(p.gates) && p.gates[p.gi].seq == rec.seq {
		if p.gates[p.gi].idx != int64(p.gi-start) {
			p.fail(&ChainBreak{Kind: BreakContent, Seq: rec.seq, ID: rec.id, Column: "decision_gates.idx",
				Detail: "gate rows are not numbered 0, 1, … or a blocks value is not 0 or 1"}, pos)
			return
		}
		rec.gates = append(rec.gates, p.gates[p.gi].g)
		p.gi++
	}
	m, complete := p.mirror.check(rec)
	if m == nil && !complete {
		// The body does not mirror every column: the chain hash covers them.
		rec.body = append([]byte(nil), rec.body...)
		if h, err := chainHash(rec); err != nil || h != rec.hash {
			m = &mismatch{"", "row content no longer matches its hash"}
		}
	}
	if m != nil {
		p.fail(&ChainBreak{Kind: BreakContent, Seq: rec.seq, ID: rec.id, Column: m.column, Detail: m.detail}, pos)
	}
}

// compareTree compares the stored tree hashes, in index order, with the
// tree rebuilt from the bodies.
func (p *logPass) compareTree(ctx context.Context, q querier) error {
	want := p.rep.tree.Stored
	rows, err := q.QueryContext(ctx, "SELECT idx, hash FROM tree_hashes ORDER BY idx")
	if err != nil {
		return err
	}
	defer rows.Close()
	var j int64
	for ; rows.Next(); j++ {
		var idx int64
		var s string
		if err := rows.Scan(&idx, &s); err != nil {
			return err
		}
		if j >= int64(len(want)) {
			p.fail(&ChainBreak{Kind: BreakTruncated, Seq: p.rep.Size + 1,
				Detail: fmt.Sprintf("the tree holds hashes past the log's %d decisions: decisions after seq %d were deleted", p.rep.Size, p.rep.Size)},
				p.rep.Size+1)
			return rows.Err()
		}
		h, herr := parseHexHash(s)
		if idx != j || herr != nil || h != want[j] {
			b := treeBreak(j, idx != j)
			p.fail(b, b.Seq)
			return rows.Err()
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if j < int64(len(want)) {
		b := treeBreak(j, true)
		p.fail(b, b.Seq)
	}
	return nil
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
func (p *logPass) explain(ctx context.Context, q querier) (LogReport, error) {
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
func (p *logPass) slow(ctx context.Context, q querier, cause error) (LogReport, error) {
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
