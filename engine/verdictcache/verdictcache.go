// Package verdictcache indexes the verdicts the decision log holds by their
// input digest, so that an evaluation can reuse one instead of running its
// policy again. The digest of a gate's verdict is everything its policy's
// result is a function of: the policy's source, the gate's effective params
// and the digest of every namespace the gate declares; the binary that
// evaluates it versions the cache (a rebuilt tausik starts afresh). The
// store's fact cache maps a digest to the decision that computed it, and the
// engine reads a reused verdict back from that decision in the hash-chained
// log, never from the cache itself: an entry that does not check out is a
// miss.
//
// Only verdicts of policies that read nothing but their declared namespaces,
// params and schema are indexed (see Reusable): a policy reading the request
// (its time, task or files) is evaluated every time. Cache I/O errors only
// cost the evaluation.
package verdictcache

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

// Store is the part of *store.Store the verdict cache uses.
type Store interface {
	CacheGetMany(ctx context.Context, runner, version string, shas []string) (map[string]json.RawMessage, error)
	CachePutMany(ctx context.Context, entries []store.CacheEntry) error
}

// Runner is the fact cache's runner name for verdicts.
const Runner = "verdict"

// format versions what a key covers and how an entry is stored.
const format = "verdict/1"

// Cache is the verdict index over a store, for one binary. It remembers
// the entries it has read or written (an entry only ever names a decision
// that computed its key's verdict, so one remembered stays true), which
// spares a resident evaluator a store read per call.
type Cache struct {
	st      Store
	version string

	mu    sync.Mutex
	known map[string]string // key → decision
}

// maxKnown bounds the entries a Cache remembers.
const maxKnown = 4096

// New returns the cache over st, or nil (no reuse) when the running binary
// cannot be identified.
func New(st Store) *Cache {
	id, ok := BinaryIdentity()
	if !ok {
		return nil
	}
	return &Cache{st: st, version: format + "+" + id}
}

// Version is the fact cache version the entries of c are stored under.
func (c *Cache) Version() string { return c.version }

// BinaryIdentity names the running executable by its file's stamp: a rebuilt
// or upgraded tausik (another OPA, another CEL, another way of reading
// results) never reuses what an earlier binary computed.
var BinaryIdentity = sync.OnceValues(func() (string, bool) {
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

// entry is a cache row: the decision that computed a key's verdict.
type entry struct {
	Decision string `json:"decision"`
}

// Reusable reports whether g's verdicts may be indexed: its policy reads
// only what the key covers.
func Reusable(g *gate.Gate) bool {
	return policy.UseOf(g.Policy).OnlyReads(append([]string{"params", "schema"}, g.Facts...))
}

// Key returns the input digest of g's verdict with params over the
// namespaces whose digests are parts.
func Key(g *gate.Gate, params map[string]any, parts map[string]string) (string, error) {
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

// Lookup returns, for each gate name of keys (its input digest) the cache
// knows, the decision that computed its verdict: a well-formed ID the caller
// still checks against the log.
func (c *Cache) Lookup(ctx context.Context, keys map[string]string) map[string]string {
	found := map[string]string{}
	var shas []string
	c.mu.Lock()
	for name, k := range keys {
		if id, ok := c.known[k]; ok {
			found[name] = id
		} else {
			shas = append(shas, HexOf(k))
		}
	}
	c.mu.Unlock()
	if len(shas) == 0 {
		return found
	}
	rows, err := c.st.CacheGetMany(ctx, Runner, c.version, shas)
	if err != nil || len(rows) == 0 {
		return found
	}
	for name, k := range keys {
		raw, ok := rows[HexOf(k)]
		if !ok {
			continue
		}
		var e entry
		if json.Unmarshal(raw, &e) != nil {
			continue
		}
		if _, err := ulid.ParseStrict(e.Decision); err == nil {
			found[name] = e.Decision
			c.remember(k, e.Decision)
		}
	}
	return found
}

// remember notes that decision computed the verdict of key.
func (c *Cache) remember(key, decision string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.known) >= maxKnown || c.known == nil {
		c.known = map[string]string{}
	}
	c.known[key] = decision
}

// Index records that decision computed the verdicts of the input digests
// keys; an error only means a later evaluation computes them again.
func (c *Cache) Index(ctx context.Context, decision string, keys []string) {
	if c == nil || len(keys) == 0 {
		return
	}
	raw, err := json.Marshal(entry{Decision: decision})
	if err != nil {
		return
	}
	rows := make([]store.CacheEntry, len(keys))
	for i, k := range keys {
		rows[i] = store.CacheEntry{Key: store.CacheKey{Runner: Runner, Version: c.version, SHA256: HexOf(k)}, Value: raw}
	}
	if c.st.CachePutMany(ctx, rows) == nil {
		for _, k := range keys {
			c.remember(k, decision)
		}
	}
}

// HexOf is the hex part of a "sha256:<hex>" digest.
func HexOf(digest string) string { return strings.TrimPrefix(digest, "sha256:") }
