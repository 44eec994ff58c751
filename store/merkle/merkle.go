// Package merkle keeps tausik's decision log as a Merkle tree in the RFC 6962
// shape of the Go checksum database, through golang.org/x/mod/sumdb/tlog: leaf
// n is tlog.RecordHash of the n-th decision's stored bytes, and every hash
// tlog.StoredHashes returns is kept by a backend, so a tree head or a proof
// costs O(log n) reads. It signs and opens checkpoints (C2SP tlog-checkpoint,
// as golang.org/x/mod/sumdb/note signed notes) and builds and checks
// inclusion-proof bundles that verify with no database.
//
// The package knows no SQL: a backend gives it the narrow Hashes interface
// (read stored hashes by index, append new ones), so SQLite and PostgreSQL
// share every line of tree logic.
package merkle

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"golang.org/x/mod/sumdb/tlog"
)

// Hashes is the storage the tree needs from a backend, inside the caller's
// transaction.
type Hashes interface {
	// ReadHashes returns the stored hashes at the given tlog stored-hash
	// indexes, in the order asked. A missing index is an error wrapping
	// ErrMissingHash.
	ReadHashes(ctx context.Context, indexes []int64) ([]tlog.Hash, error)
	// WriteHashes stores hashes at the consecutive indexes start, start+1, ….
	WriteHashes(ctx context.Context, start int64, hashes []tlog.Hash) error
}

// ErrMissingHash is what a backend's ReadHashes wraps for an index it does
// not hold: the tree table lost rows, or was never backfilled.
var ErrMissingHash = errors.New("tree hash missing")

// reader adapts Hashes to tlog.HashReader, which takes no context.
type reader struct {
	ctx context.Context
	h   Hashes
}

func (r reader) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	return r.h.ReadHashes(r.ctx, indexes)
}

// Append adds the record with the given bytes as leaf n (the tree has n
// leaves before) and returns its leaf hash. It reads at most log₂ n earlier
// hashes and writes the leaf and the subtree hashes it completes.
func Append(ctx context.Context, h Hashes, n int64, record []byte) (tlog.Hash, error) {
	leaf := tlog.RecordHash(record)
	hs, err := tlog.StoredHashesForRecordHash(n, leaf, reader{ctx, h})
	if err != nil {
		return tlog.Hash{}, fmt.Errorf("tree leaf %d: %w", n, err)
	}
	if err := h.WriteHashes(ctx, tlog.StoredHashIndex(0, n), hs); err != nil {
		return tlog.Hash{}, fmt.Errorf("tree leaf %d: %w", n, err)
	}
	return leaf, nil
}

// Root returns the tree head over the first n leaves.
func Root(ctx context.Context, h Hashes, n int64) (tlog.Hash, error) {
	root, err := tlog.TreeHash(n, reader{ctx, h})
	if err != nil {
		return tlog.Hash{}, fmt.Errorf("tree head at size %d: %w", n, err)
	}
	return root, nil
}

// ProveRecord returns the proof that leaf i is in the tree of size n.
func ProveRecord(ctx context.Context, h Hashes, i, n int64) (tlog.RecordProof, error) {
	p, err := tlog.ProveRecord(n, i, reader{ctx, h})
	if err != nil {
		return nil, fmt.Errorf("inclusion proof of leaf %d at size %d: %w", i, n, err)
	}
	return p, nil
}

// ProveTree returns the proof that the tree of size old is a prefix of the
// tree of size n.
func ProveTree(ctx context.Context, h Hashes, old, n int64) (tlog.TreeProof, error) {
	p, err := tlog.ProveTree(n, old, reader{ctx, h})
	if err != nil {
		return nil, fmt.Errorf("consistency proof %d→%d: %w", old, n, err)
	}
	return p, nil
}

// Builder recomputes a whole tree from its records, in memory, for
// verification: after n Adds, Stored holds exactly the hashes a backend
// should hold for n leaves, in stored-hash index order.
type Builder struct {
	Stored []tlog.Hash
	n      int64
}

// ReadHashes implements tlog.HashReader over the hashes built so far.
func (b *Builder) ReadHashes(indexes []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(indexes))
	for i, x := range indexes {
		if x < 0 || x >= int64(len(b.Stored)) {
			return nil, fmt.Errorf("%w: index %d of %d", ErrMissingHash, x, len(b.Stored))
		}
		out[i] = b.Stored[x]
	}
	return out, nil
}

// Add appends the next record and returns its leaf hash. Every index it
// reads was built by an earlier Add, so an error means the Builder was
// modified from outside.
func (b *Builder) Add(record []byte) (tlog.Hash, error) {
	leaf := tlog.RecordHash(record)
	return leaf, b.AddHash(leaf)
}

// AddHash adds the next leaf by its record hash (tlog.RecordHash of the
// record), for callers that hash records elsewhere, several at once.
//
// It appends what tlog.StoredHashesForRecordHash returns, without that
// function's three allocations per leaf (a tenth of `log verify`'s tree
// work): the leaf, then, for each subtree the leaf completes, that
// subtree's hash over its left sibling, stored earlier. A test holds the
// two to the same hashes.
func (b *Builder) AddHash(leaf tlog.Hash) error {
	b.Stored = append(b.Stored, leaf)
	h := leaf
	for level, n := 0, b.n; n&1 == 1; level, n = level+1, n>>1 {
		left := tlog.StoredHashIndex(level, n-1)
		if left >= int64(len(b.Stored)) {
			return fmt.Errorf("tree leaf %d: %w: index %d of %d", b.n, ErrMissingHash, left, len(b.Stored))
		}
		h = tlog.NodeHash(b.Stored[left], h)
		b.Stored = append(b.Stored, h)
	}
	b.n++
	return nil
}

// Grow makes room for n more leaves, so that adding them copies nothing.
func (b *Builder) Grow(n int64) {
	b.Stored = slices.Grow(b.Stored, int(tlog.StoredHashCount(b.n+n)-int64(len(b.Stored))))
}

// Size is the number of records added.
func (b *Builder) Size() int64 { return b.n }

// Root returns the tree head over the first n records added (n ≤ Size).
func (b *Builder) Root(n int64) (tlog.Hash, error) {
	if n < 0 || n > b.n {
		return tlog.Hash{}, fmt.Errorf("tree head at size %d: only %d leaves", n, b.n)
	}
	return tlog.TreeHash(n, b)
}
