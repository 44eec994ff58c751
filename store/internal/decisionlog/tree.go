package decisionlog

import (
	"github.com/tausik/tausik/store/internal/sqldb"

	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/mod/sumdb/tlog"

	"github.com/tausik/tausik/store/merkle"
)

// sqlHashes is the tree_hashes table as merkle.Hashes, inside the caller's
// transaction. Hashes are stored as lower-case hex TEXT, which every SQL
// backend stores and compares the same way.
type sqlHashes struct{ q sqldb.Querier }

// ReadHashes implements merkle.Hashes.
func (h sqlHashes) ReadHashes(ctx context.Context, indexes []int64) ([]tlog.Hash, error) {
	if len(indexes) == 0 {
		return nil, nil
	}
	args := make([]any, len(indexes))
	for i, x := range indexes {
		args[i] = x
	}
	// An append reads a few hashes, a proof up to one per level: hot.
	rows, err := h.q.QueryContext(ctx, sqldb.Hot("SELECT idx, hash FROM tree_hashes WHERE idx IN (?"+
		strings.Repeat(", ?", len(indexes)-1)+")"), args...)
	if err != nil {
		return nil, fmt.Errorf("read tree hashes: %w", err)
	}
	defer rows.Close()
	got := make(map[int64]tlog.Hash, len(indexes))
	for rows.Next() {
		var idx int64
		var s string
		if err := rows.Scan(&idx, &s); err != nil {
			return nil, fmt.Errorf("read tree hashes: %w", err)
		}
		hash, err := parseHexHash(s)
		if err != nil {
			return nil, fmt.Errorf("tree hash %d: %w", idx, err)
		}
		got[idx] = hash
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read tree hashes: %w", err)
	}
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		hash, ok := got[x]
		if !ok {
			return nil, fmt.Errorf("%w: stored index %d", merkle.ErrMissingHash, x)
		}
		out[i] = hash
	}
	return out, nil
}

// WriteHashes implements merkle.Hashes with one multi-row INSERT per batch.
func (h sqlHashes) WriteHashes(ctx context.Context, start int64, hashes []tlog.Hash) error {
	const batch = 400
	for len(hashes) > 0 {
		n := min(len(hashes), batch)
		args := make([]any, 0, 2*n)
		for i, hash := range hashes[:n] {
			args = append(args, start+int64(i), hex.EncodeToString(hash[:]))
		}
		q := "INSERT INTO tree_hashes (idx, hash) VALUES (?, ?)" + strings.Repeat(", (?, ?)", n-1)
		if n <= 64 { // an append writes one per level it completes
			q = sqldb.Hot(q)
		}
		if _, err := h.q.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("write tree hashes from %d: %w", start, err)
		}
		hashes, start = hashes[n:], start+int64(n)
	}
	return nil
}

func parseHexHash(s string) (tlog.Hash, error) {
	var h tlog.Hash
	if len(s) != 2*tlog.HashSize {
		return h, fmt.Errorf("%q is not %d hex digits", s, 2*tlog.HashSize)
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil || strings.ToLower(s) != s {
		return h, fmt.Errorf("%q is not lower-case hex", s)
	}
	return h, nil
}

// backfillTree hashes the decisions logged before schema version 2 into the
// tree, in seq order, inside the migration's transaction. It reads every body
// first and writes afterwards, so no statement runs while a result set is
// open (PostgreSQL drivers cannot interleave them).
func backfillTree(ctx context.Context, q sqldb.Querier) error {
	b, err := buildTree(ctx, q)
	if err != nil {
		return fmt.Errorf("backfill tree: %w", err)
	}
	return sqlHashes{q}.WriteHashes(ctx, 0, b.Stored)
}

// buildTree computes the tree over every body in seq order, in memory.
func buildTree(ctx context.Context, q sqldb.Querier) (*merkle.Builder, error) {
	b := &merkle.Builder{}
	rows, err := q.QueryContext(ctx, "SELECT body FROM decisions ORDER BY seq")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var body sql.RawBytes
		if err := rows.Scan(&body); err != nil {
			return nil, err
		}
		if _, err := b.Add(body); err != nil {
			return nil, err
		}
	}
	return b, rows.Err()
}

// TreeHead is the tree's size and root as the store holds them, what a
// checkpoint signs.
type TreeHead struct {
	Size int64
	Root tlog.Hash
}

// TreeHead returns the current size (the chain head's count) and the root
// computed from the stored hashes: O(log n) reads, no verification. A tree
// lacking hashes is sqldb.ErrChainBroken.
func (s *Log) TreeHead(ctx context.Context) (TreeHead, error) {
	var th TreeHead
	err := s.db.Read(ctx, func(q sqldb.Querier) error {
		var err error
		th, err = treeHead(ctx, q)
		return err
	})
	if err != nil {
		return TreeHead{}, fmt.Errorf("tree head: %w", err)
	}
	return th, nil
}

func treeHead(ctx context.Context, q sqldb.Querier) (TreeHead, error) {
	var n int64
	err := q.QueryRowContext(ctx, "SELECT count FROM chain_head WHERE id = 1").Scan(&n)
	if sqldb.IsNoRows(err) {
		return TreeHead{}, fmt.Errorf("%w: chain head row is missing", sqldb.ErrChainBroken)
	}
	if err != nil {
		return TreeHead{}, err
	}
	root, err := merkle.Root(ctx, sqlHashes{q}, n)
	if errors.Is(err, merkle.ErrMissingHash) {
		return TreeHead{}, fmt.Errorf("%w: %w", sqldb.ErrChainBroken, err)
	}
	return TreeHead{Size: n, Root: root}, err
}

// InclusionProof is one decision with its proof of inclusion in the tree of
// a given size.
type InclusionProof struct {
	Entry
	Index int64            // leaf index, Seq-1
	Size  int64            // the tree size the proof leads to
	Root  tlog.Hash        // the root at that size, from the stored hashes
	Proof tlog.RecordProof // leaf to root
}

// ProveDecision returns the decision id names (full or a unique prefix, as
// GetDecision) with its inclusion proof in the tree of the given size; size
// 0 means the current size. The caller compares Root with the checkpoint it
// proves against. sqldb.ErrNotFound, sqldb.ErrAmbiguousID, or sqldb.ErrInvalidFilter when the
// decision is not within size.
func (s *Log) ProveDecision(ctx context.Context, id string, size int64) (InclusionProof, error) {
	e, err := s.GetDecision(ctx, id)
	if err != nil {
		return InclusionProof{}, err
	}
	p := InclusionProof{Entry: e, Index: e.Seq - 1}
	err = s.db.Read(ctx, func(q sqldb.Querier) error {
		th, err := treeHead(ctx, q)
		if err != nil {
			return err
		}
		if size == 0 {
			size = th.Size
		}
		if size > th.Size || p.Index >= size {
			return fmt.Errorf("%w: decision %s is at seq %d, the tree asked for has %d decisions and the log %d",
				sqldb.ErrInvalidFilter, e.ID, e.Seq, size, th.Size)
		}
		p.Size = size
		h := sqlHashes{q}
		if p.Root, err = merkle.Root(ctx, h, size); err != nil {
			return err
		}
		p.Proof, err = merkle.ProveRecord(ctx, h, p.Index, size)
		return err
	})
	if err != nil {
		return InclusionProof{}, fmt.Errorf("prove decision %s: %w", id, err)
	}
	return p, nil
}
