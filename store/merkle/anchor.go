package merkle

import (
	"fmt"
	"sort"

	"golang.org/x/mod/sumdb/tlog"
)

// Tree is a log's tree as recomputed from its stored bytes, what anchors are
// checked against.
type Tree interface {
	Size() int64
	Root(n int64) (tlog.Hash, error)
	ReadHashes(indexes []int64) ([]tlog.Hash, error)
}

// AnchorKind is the verdict on one checkpoint.
type AnchorKind string

// The verdicts, from good to bad.
const (
	// AnchorOK: the log extends the checkpoint: its first Size decisions
	// hash to the checkpoint's root.
	AnchorOK AnchorKind = "ok"
	// AnchorTruncated: the log has fewer decisions than the checkpoint
	// recorded; the missing ones were deleted.
	AnchorTruncated AnchorKind = "tail_truncated"
	// AnchorRewritten: the log's first Size decisions no longer hash to the
	// checkpoint's root: one of them was edited, deleted, inserted or moved,
	// and the tree rewritten to hide it.
	AnchorRewritten AnchorKind = "rewritten"
	// AnchorFork: the checkpoint contradicts another checkpoint of the
	// same log: both cannot describe one append-only history.
	AnchorFork AnchorKind = "fork"
	// AnchorBadSignature: no signature on the checkpoint verifies against
	// the trusted keys; it is not compared with the log.
	AnchorBadSignature AnchorKind = "bad_signature"
)

// Anchor is one checkpoint as the verifier got it.
type Anchor struct {
	Name string // where it came from, for messages
	Opened
}

// AnchorResult is the verdict on one anchor. First and Last bound the first
// changed position (1-based seq) when the anchor is rewritten: the largest
// smaller checkpoint that still matches rules out everything before it.
type AnchorResult struct {
	Anchor
	Kind        AnchorKind
	First, Last int64
	Detail      string
}

// CheckAnchors checks the tree against every anchor, and the anchors
// against each other: for any two, the smaller must be a prefix of the
// larger (a tlog consistency proof over the recomputed tree when the log
// extends both; a fork when they have one size and two roots, or when the
// log extends the larger but not the smaller). Results come in the order the
// anchors were given.
func CheckAnchors(t Tree, anchors []Anchor) ([]AnchorResult, error) {
	res := make([]AnchorResult, len(anchors))
	for i, a := range anchors {
		res[i] = AnchorResult{Anchor: a, Kind: AnchorOK}
		if a.Size > t.Size() {
			res[i].Kind, res[i].First, res[i].Last = AnchorTruncated, t.Size()+1, a.Size
			res[i].Detail = fmt.Sprintf("the checkpoint records %d decisions, the log has %d: seq %d..%d were deleted",
				a.Size, t.Size(), t.Size()+1, a.Size)
			continue
		}
		root, err := t.Root(a.Size)
		if err != nil {
			return nil, err
		}
		if root != a.Root {
			res[i].Kind, res[i].First, res[i].Last = AnchorRewritten, 1, a.Size
		}
	}
	order := make([]int, len(res))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return res[order[x]].Size < res[order[y]].Size })
	for x, i := range order {
		for _, j := range order[x+1:] {
			if err := pair(t, &res[i], &res[j]); err != nil {
				return nil, err
			}
		}
	}
	for i := range res {
		r := &res[i]
		if r.Kind == AnchorRewritten && r.Detail == "" {
			r.Detail = fmt.Sprintf("the log's first %d decisions no longer hash to the checkpoint's root: "+
				"a decision in seq %d..%d was edited, deleted, inserted or moved", r.Size, r.First, r.Last)
		}
	}
	return res, nil
}

// pair checks a smaller-or-equal anchor a against a larger b.
func pair(t Tree, a, b *AnchorResult) error {
	switch {
	case a.Size == b.Size && a.Root != b.Root:
		for _, r := range []*AnchorResult{a, b} {
			other := a
			if r == a {
				other = b
			}
			r.Kind = AnchorFork
			r.Detail = fmt.Sprintf("%s records another root for the same %d decisions: two histories were signed", other.Name, r.Size)
		}
	case a.Kind == AnchorRewritten && b.Kind == AnchorOK:
		a.Kind = AnchorFork
		a.Detail = fmt.Sprintf("not a prefix of %s (size %d), which the log still extends: the two checkpoints describe different histories",
			b.Name, b.Size)
	case a.Kind == AnchorOK && b.Kind == AnchorOK && a.Size < b.Size:
		proof, err := tlog.ProveTree(b.Size, a.Size, t)
		if err != nil {
			return err
		}
		if err := tlog.CheckTree(proof, b.Size, b.Root, a.Size, a.Root); err != nil {
			a.Kind, b.Kind = AnchorFork, AnchorFork
			a.Detail = fmt.Sprintf("no consistency proof to %s: %v", b.Name, err)
			b.Detail = a.Detail
		}
	case a.Kind == AnchorOK && (b.Kind == AnchorRewritten || b.Kind == AnchorTruncated) && a.Size < b.Size:
		// Everything up to a still matches, so the first change is after it.
		b.First = max(b.First, a.Size+1)
	}
	return nil
}
