package decisionlog

import (
	"github.com/tausik/tausik/store/internal/quickverify"
	"github.com/tausik/tausik/store/internal/sqldb"

	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/tausik/tausik/internal/canonjson"
)

// GenesisHash is the prev_hash of the first row (seq 1): 64 zeros, the same
// width as every other chain hash, so no row is special-cased by format.
const GenesisHash = sqldb.GenesisHash

// hashInput is the preimage of a row's hash: every stored column of the row
// except hash itself, plus its gate verdicts in order. Fields are declared in
// sorted key order, so encoding/json writes canonical JSON (sorted keys, no
// whitespace, no HTML escaping: canonjson); a test pins that.
type hashInput struct {
	Blocked   bool       `json:"blocked"`
	Body      string     `json:"body"`
	ExitCode  int64      `json:"exit_code"`
	Gates     []hashGate `json:"gates"`
	GitHead   string     `json:"git_head"`
	ID        string     `json:"id"`
	PrevHash  string     `json:"prev_hash"`
	Requester string     `json:"requester"`
	Seq       int64      `json:"seq"`
	Task      string     `json:"task"`
	Time      string     `json:"time"`
	Trigger   string     `json:"trigger"`
}

type hashGate struct {
	Blocks   bool   `json:"blocks"`
	Name     string `json:"name"`
	Outcome  string `json:"outcome"`
	Severity string `json:"severity"`
}

// chainHash returns the lower-case hex sha256 of the row's canonical preimage.
// The body enters as a JSON string holding its exact stored bytes, so any
// edit of the body, even whitespace, changes the hash without the verifier
// having to re-encode every body.
func chainHash(rec *Record) (string, error) {
	in := hashInput{
		Blocked: rec.blocked, Body: string(rec.body), ExitCode: rec.exitCode,
		Gates: make([]hashGate, len(rec.gates)), GitHead: rec.gitHead, ID: rec.id,
		PrevHash: rec.prevHash, Requester: rec.requester, Seq: rec.seq, Task: rec.task,
		Time: rec.time, Trigger: rec.trigger,
	}
	for i, g := range rec.gates {
		in.Gates[i] = hashGate{Blocks: g.Blocks, Name: g.Name, Outcome: string(g.Outcome), Severity: string(g.Severity)}
	}
	b, err := canonjson.Marshal(in)
	if err != nil {
		return "", fmt.Errorf("hash row seq %d: %w", rec.seq, err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// BreakKind classifies the first problem VerifyChain finds.
type BreakKind string

// The kinds of chain break, from the most local to the most global.
const (
	// BreakContent: a row's stored content no longer hashes to its hash (a
	// column, its gate list or its body was edited). Column names the culprit
	// when it can be told.
	BreakContent BreakKind = "content_changed"
	// BreakMissing: seq numbers jump, so rows were deleted.
	BreakMissing BreakKind = "rows_missing"
	// BreakLink: an intact row does not link to the row before it, so rows
	// were inserted, reordered, or deleted and renumbered.
	BreakLink BreakKind = "link_broken"
	// BreakTruncated: the chain head records more rows than the log holds.
	BreakTruncated BreakKind = "tail_truncated"
	// BreakUnwitnessed: rows exist past the chain head (appended by hand).
	BreakUnwitnessed BreakKind = "rows_unwitnessed"
	// BreakHead: the chain head is missing or names a different last hash.
	BreakHead BreakKind = "head_mismatch"
)

// ChainBreak describes the first broken row.
type ChainBreak struct {
	Kind   BreakKind // what kind of tampering the evidence points to
	Seq    int64     // the row where the break shows (0 for head problems on an empty log)
	ID     string    // that row's decision id, when known
	Column string    // for BreakContent: the column that changed, when it can be told
	Detail string    // a sentence for humans naming rows and hashes
}

// String renders the break for humans, e.g. `content_changed at seq 7 (id
// 01J…): column requester: …`.
func (b *ChainBreak) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s at seq %d", b.Kind, b.Seq)
	if b.ID != "" {
		fmt.Fprintf(&sb, " (id %s)", b.ID)
	}
	if b.Column != "" {
		fmt.Fprintf(&sb, ": column %s", b.Column)
	}
	if b.Detail != "" {
		fmt.Fprintf(&sb, ": %s", b.Detail)
	}
	return sb.String()
}

// ChainReport is the outcome of a chain verification. A broken chain is a
// report with OK false, not an error: errors mean the check itself could not
// run.
type ChainReport struct {
	OK    bool        // every check passed
	Rows  int64       // rows verified intact (all rows when OK)
	Head  string      // hash of the last intact row; publish it to anchor the log externally
	Gaps  int         // exports only: seq gaps in a filtered (partial) export
	Break *ChainBreak // the first problem; nil when OK
}

// Err returns nil for an intact chain and an error wrapping sqldb.ErrChainBroken
// that names the first break otherwise, for callers that want an exit code.
func (r ChainReport) Err() error {
	if r.OK {
		return nil
	}
	if r.Break == nil {
		return sqldb.ErrChainBroken
	}
	return fmt.Errorf("%w: %s", sqldb.ErrChainBroken, r.Break)
}

// VerifyChain recomputes every row's hash in seq order inside one read
// snapshot and checks, per row: its content hashes to its hash, its seq
// follows the previous one, and its prev_hash is the previous row's hash; then
// that the chain head (count and last hash, written in the same transaction as
// each append) matches the last row. It stops at the first break.
//
// It detects any edit, deletion, insertion, reordering or truncation made
// without recomputing every later hash and the head; it cannot detect a
// rewrite by someone who recomputes them all. Publishing Head (in CI logs, a
// receipt, a commit) turns that into detectable tampering too.
func (s *Log) VerifyChain(ctx context.Context) (ChainReport, error) {
	var rep ChainReport
	err := s.db.Read(ctx, func(q sqldb.Querier) error {
		var err error
		rep, err = verifyChain(ctx, q)
		return err
	})
	if err != nil {
		return ChainReport{}, fmt.Errorf("verify chain: %w", err)
	}
	return rep, nil
}

func verifyChain(ctx context.Context, q sqldb.Querier) (ChainReport, error) {
	rep := ChainReport{Head: GenesisHash}
	var prevSeq int64
	var bad *Record
	var badProb *mismatch
	var badComputed string
	var kind BreakKind

	rows, err := q.QueryContext(ctx, "SELECT "+entryColumns+" FROM decisions d ORDER BY d.seq")
	if err != nil {
		return rep, err
	}
	for rows.Next() {
		rec, prob, err := scanRecord(rows)
		if err != nil {
			rows.Close()
			return rep, err
		}
		if prob != nil {
			bad, badProb, kind = rec, prob, BreakContent
			break
		}
		computed, herr := chainHash(rec)
		switch {
		case herr != nil:
			bad, badProb, kind = rec, &mismatch{"body", "not valid JSON"}, BreakContent
		case computed != rec.hash:
			bad, badComputed, kind = rec, computed, BreakContent
		case rec.seq != prevSeq+1:
			bad, kind = rec, BreakMissing
		case rec.prevHash != rep.Head:
			bad, kind = rec, BreakLink
		default:
			if m := consistencyProblem(rec); m != nil {
				bad, badProb, kind = rec, m, BreakContent
			}
		}
		if bad != nil {
			break
		}
		rep.Rows++
		rep.Head, prevSeq = rec.hash, rec.seq
	}
	if err := rows.Close(); err != nil {
		return rep, err
	}
	if err := rows.Err(); err != nil {
		return rep, err
	}
	if bad != nil {
		rep.Break, err = describeBreak(ctx, q, kind, bad, badProb, badComputed, prevSeq, rep.Head)
		return rep, err
	}
	if rep.Break, err = checkHead(ctx, q, prevSeq, rep.Head); err != nil || rep.Break != nil {
		return rep, err
	}
	rep.OK = true
	return rep, nil
}

// bodyProblem checks what the hash alone cannot: that the body is stored in
// canonical form and agrees with the columns. A row failing it while its hash
// matches was forged with a recomputed hash.
func bodyProblem(rec *Record) *mismatch {
	canon, err := canonicalBody(rec.body)
	if err != nil {
		return &mismatch{"body", fmt.Sprintf("not a JSON object: %v", err)}
	}
	if !bytes.Equal(canon, rec.body) {
		return &mismatch{"body", "not in canonical form (edited by hand)"}
	}
	return consistencyProblem(rec)
}

// consistencyProblem compares the columns, the gate list included, with the body.
func consistencyProblem(rec *Record) *mismatch {
	m, err := parseMirror(rec.body)
	if err != nil {
		return &mismatch{"body", err.Error()}
	}
	return checkBody(rec, m)
}

func describeBreak(ctx context.Context, q sqldb.Querier, kind BreakKind, rec *Record, prob *mismatch,
	computed string, prevSeq int64, prevHash string) (*ChainBreak, error) {
	b := &ChainBreak{Kind: kind, Seq: rec.seq, ID: rec.id}
	switch kind {
	case BreakMissing:
		if rec.seq > prevSeq+1 {
			b.Detail = fmt.Sprintf("rows seq %d..%d are missing (deleted)", prevSeq+1, rec.seq-1)
		} else {
			b.Detail = fmt.Sprintf("seq %d follows seq %d", rec.seq, prevSeq)
		}
		return b, nil
	case BreakLink:
		var owner sql.NullInt64
		err := q.QueryRowContext(ctx, "SELECT MIN(seq) FROM decisions WHERE hash = ?", rec.prevHash).Scan(&owner)
		if err != nil {
			return nil, err
		}
		if owner.Valid {
			b.Detail = fmt.Sprintf("row is intact but links to seq %d, not seq %d: rows were reordered", owner.Int64, prevSeq)
		} else {
			b.Detail = fmt.Sprintf("row is intact but its predecessor (hash %.12s…) is not in the log: "+
				"a row before it was replaced or inserted, or rows were deleted and renumbered", rec.prevHash)
		}
		return b, nil
	}
	if prob != nil {
		b.Column, b.Detail = prob.column, prob.detail
		return b, nil
	}
	b.Detail = "row content no longer matches its hash"
	// Try to tell which column changed.
	if orig, err := originalSeq(ctx, q, rec); err != nil {
		return nil, err
	} else if orig != 0 {
		b.Column = "seq"
		b.Detail = fmt.Sprintf("row was renumbered from seq %d: rows were inserted, deleted or reordered around it", orig)
		return b, nil
	}
	if rec.prevHash != prevHash {
		trial := *rec
		trial.prevHash = prevHash
		if h, err := chainHash(&trial); err == nil && h == rec.hash {
			b.Column = "prev_hash"
			return b, nil
		}
	}
	var next string
	err := q.QueryRowContext(ctx, "SELECT prev_hash FROM decisions WHERE seq = ?", rec.seq+1).Scan(&next)
	if errors.Is(err, sql.ErrNoRows) {
		err = q.QueryRowContext(ctx, "SELECT hash FROM chain_head WHERE id = 1").Scan(&next)
		if errors.Is(err, sql.ErrNoRows) {
			err = nil
		}
	}
	if err != nil {
		return nil, err
	}
	if next == computed {
		b.Column = "hash"
		return b, nil
	}
	if m := bodyProblem(rec); m != nil {
		b.Column, b.Detail = m.column, m.detail
	} else if m, err := parseMirror(rec.body); err == nil && m.complete() {
		// Every other column agrees with the body, so the body itself changed.
		b.Column = "body"
	}
	return b, nil
}

// maxRenumberSearch bounds the search for a renumbered row's original seq;
// it only runs on a broken row, and hashing is cheap.
const maxRenumberSearch = 1_000_000

// originalSeq returns the seq under which rec's content hashes to its stored
// hash, when that differs from its current seq, or 0.
func originalSeq(ctx context.Context, q sqldb.Querier, rec *Record) (int64, error) {
	var maxSeq sql.NullInt64
	if err := q.QueryRowContext(ctx, "SELECT MAX(seq) FROM decisions").Scan(&maxSeq); err != nil {
		return 0, err
	}
	limit := min(max(maxSeq.Int64, rec.seq)+1, maxRenumberSearch)
	trial := *rec
	for seq := int64(1); seq <= limit; seq++ {
		if seq == rec.seq {
			continue
		}
		trial.seq = seq
		if h, err := chainHash(&trial); err == nil && h == rec.hash {
			return seq, nil
		}
	}
	return 0, nil
}

func checkHead(ctx context.Context, q sqldb.Querier, lastSeq int64, lastHash string) (*ChainBreak, error) {
	var count int64
	var hash string
	err := q.QueryRowContext(ctx, "SELECT count, hash FROM chain_head WHERE id = 1").Scan(&count, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return &ChainBreak{Kind: BreakHead, Seq: lastSeq, Detail: "chain head row is missing"}, nil
	}
	if err != nil {
		return nil, err
	}
	switch {
	case !quickverify.IsChainHash(hash):
		return &ChainBreak{Kind: BreakHead, Seq: lastSeq,
			Detail: fmt.Sprintf("chain head hash %.16q is not 64 lower-case hex digits", hash)}, nil
	case count > lastSeq:
		return &ChainBreak{Kind: BreakTruncated, Seq: lastSeq + 1,
			Detail: fmt.Sprintf("chain head records %d rows, the log ends at seq %d: rows %d..%d were deleted",
				count, lastSeq, lastSeq+1, count)}, nil
	case count < lastSeq:
		return &ChainBreak{Kind: BreakUnwitnessed, Seq: count + 1,
			Detail: fmt.Sprintf("chain head records %d rows, the log has %d: rows after %d were not appended by tausik",
				count, lastSeq, count)}, nil
	case hash != lastHash:
		return &ChainBreak{Kind: BreakHead, Seq: lastSeq,
			Detail: fmt.Sprintf("chain head hash %.12s… differs from the last row's %.12s…", hash, lastHash)}, nil
	}
	return nil, nil
}
