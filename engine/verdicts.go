package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/oklog/ulid/v2"

	"github.com/tausik/tausik/engine/factplan"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/store"
)

// verdictCache lets an evaluation reuse a verdict the decision log already
// holds. Its key, the verdict's InputDigest, is everything a policy's result
// is a function of: the policy's source, the gate's effective params and the
// digest of every namespace the gate declares; the binary that evaluates it
// versions the cache (a rebuilt tausik starts afresh). The store's fact cache
// maps a key to the
// decision that computed it, and a reused verdict is read back from that
// decision in the hash-chained log, never from the cache itself: a cache row
// can only point at a verdict the log holds for the same gate, policy and
// input digest, and an entry that does not check out is a miss.
//
// Only verdicts of policies that read nothing but their declared namespaces,
// params and schema are indexed (see policy.InputUse): a policy reading the request
// (its time, task or files) is evaluated every time. Cache I/O errors only
// cost the evaluation.
type verdictCache struct {
	st      verdictStore
	version string
}

// verdictStore is the part of *store.Store the verdict cache uses.
type verdictStore interface {
	CacheGetMany(ctx context.Context, runner, version string, shas []string) (map[string]json.RawMessage, error)
	CachePutMany(ctx context.Context, entries []store.CacheEntry) error
	GetDecision(ctx context.Context, id string) (store.Entry, error)
}

// verdictRunner is the fact cache's runner name for verdicts.
const verdictRunner = "verdict"

// verdictFormat versions what a key covers and how an entry is stored.
const verdictFormat = "verdict/1"

// newVerdictCache returns the cache over st, or nil (no reuse) when the
// running binary cannot be identified.
func newVerdictCache(st verdictStore) *verdictCache {
	id, ok := binaryIdentity()
	if !ok {
		return nil
	}
	return &verdictCache{st: st, version: verdictFormat + "+" + id}
}

// binaryIdentity names the running executable by its file's stamp: a rebuilt
// or upgraded tausik (another OPA, another CEL, another way of reading
// results) never reuses what an earlier binary computed.
var binaryIdentity = sync.OnceValues(func() (string, bool) {
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	info, err := os.Stat(exe)
	if err != nil {
		return "", false
	}
	return fmt.Sprintf("%d:%d", info.Size(), info.ModTime().UnixNano()), true
})

// verdictEntry is a cache row: the decision that computed a key's verdict.
type verdictEntry struct {
	Decision string `json:"decision"`
}

// reusable reports whether g's verdicts may be indexed: its policy reads
// only what the key covers.
func reusable(g *gate.Gate) bool {
	return policy.UseOf(g.Policy).OnlyReads(append([]string{"params", "schema"}, g.Facts...))
}

// key returns the input digest of g's verdict with params over the
// namespaces whose digests are parts.
func (c *verdictCache) key(g *gate.Gate, params map[string]any, parts map[string]string) (string, error) {
	seen := map[string]string{}
	for _, ns := range g.Facts {
		seen[ns] = parts[ns]
	}
	k := map[string]any{
		"gate": g.Name, "source": g.Source, "language": g.Language, "policy": g.PolicyDigest,
		"schema": parts["schema"], "params": params, "facts": seen,
	}
	// A gate's view of a glob namespace is its globs' part of it.
	for _, ns := range factplan.GlobNamespaces {
		if globs := g.Globs(ns); len(globs) > 0 {
			k["globs:"+ns] = globs
		}
	}
	if g.ContentMaxBytes > 0 {
		k["content_max_bytes"] = g.ContentMaxBytes
	}
	b, err := facts.Canonical(k)
	if err != nil {
		return "", err
	}
	return facts.DigestBytes(b), nil
}

// reuse returns, for each gate of selected, its input digest given the
// namespace digests parts, and the verdicts the log holds for the digests
// the cache knows, with Reused naming their decision. A gate's reusability
// is not asked here, which would compile a lazy policy: only reusable
// verdicts are ever indexed, under a digest that covers the policy's source.
func (c *verdictCache) reuse(ctx context.Context, selected []*gate.Gate, params func(*gate.Gate) map[string]any, parts map[string]string) (map[string]string, map[string]Verdict) {
	keys := map[string]string{}
	hits := map[string]Verdict{}
	if c == nil {
		return keys, hits
	}
	var shas []string
	for _, g := range selected {
		if k, err := c.key(g, params(g), parts); err == nil {
			keys[g.Name] = k
			shas = append(shas, hexOf(k))
		}
	}
	rows, err := c.st.CacheGetMany(ctx, verdictRunner, c.version, shas)
	if err != nil || len(rows) == 0 {
		return keys, hits
	}
	logged := map[string]*Decision{}
	for _, g := range selected {
		raw, ok := rows[hexOf(keys[g.Name])]
		if !ok {
			continue
		}
		var e verdictEntry
		if json.Unmarshal(raw, &e) != nil {
			continue
		}
		d, ok := logged[e.Decision]
		if !ok {
			d = c.decision(ctx, e.Decision)
			logged[e.Decision] = d
		}
		if v, ok := recorded(d, g, keys[g.Name]); ok {
			v.Reused = e.Decision
			hits[g.Name] = v
		}
	}
	return keys, hits
}

// decision reads a logged decision in full; nil when it is not there.
func (c *verdictCache) decision(ctx context.Context, id string) *Decision {
	if _, err := ulid.ParseStrict(id); err != nil {
		return nil
	}
	entry, err := c.st.GetDecision(ctx, id)
	if err != nil || entry.ID != id {
		return nil
	}
	var d Decision
	if json.Unmarshal(entry.Body, &d) != nil || d.ID != id {
		return nil
	}
	return &d
}

// recorded returns d's verdict for g when it was evaluated (not itself
// reused) from the input digest key with g's policy.
func recorded(d *Decision, g *gate.Gate, key string) (Verdict, bool) {
	if d == nil {
		return Verdict{}, false
	}
	for _, v := range d.Gates {
		if v.Name == g.Name && v.InputDigest == key && v.PolicyDigest == g.PolicyDigest && v.Reused == "" {
			return v, true
		}
	}
	return Verdict{}, false
}

// index records that decision computed the verdicts of the gates in keys;
// an error only means a later evaluation computes them again.
func (c *verdictCache) index(ctx context.Context, decision string, keys []string) {
	if c == nil || len(keys) == 0 {
		return
	}
	raw, err := json.Marshal(verdictEntry{Decision: decision})
	if err != nil {
		return
	}
	rows := make([]store.CacheEntry, len(keys))
	for i, k := range keys {
		rows[i] = store.CacheEntry{Key: store.CacheKey{Runner: verdictRunner, Version: c.version, SHA256: hexOf(k)}, Value: raw}
	}
	_ = c.st.CachePutMany(ctx, rows)
}

// hexOf is the hex part of a "sha256:<hex>" digest.
func hexOf(digest string) string { return strings.TrimPrefix(digest, "sha256:") }
