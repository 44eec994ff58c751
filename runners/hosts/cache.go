package hosts

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/store"
)

// Store is the part of *store.Store the runner keeps generator results in.
type Store interface {
	CacheGetMany(ctx context.Context, runner, version string, shas []string) (map[string]json.RawMessage, error)
	CachePutMany(ctx context.Context, entries []store.CacheEntry) error
}

// WithCache keeps what each generator wrote in st, keyed by everything it
// is given: its config, the tausik binary (identity), and the content of
// every project file the temp copy holds. A generator is run again only
// when one of them changed; one that failed is never kept.
func WithCache(st Store, identity string) Option {
	return func(r *Runner) { r.st, r.identity = st, identity }
}

// cacheVersion versions the kept results and what their key covers.
const cacheVersion = "hosts/1"

// treeDigest digests the content and executable bit of files under root.
func treeDigest(root string, files []string) (string, error) {
	h := sha256.New()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		info, err := os.Lstat(p)
		if err != nil || !info.Mode().IsRegular() {
			continue // as copyFiles: not copied, so not read
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256(b)
		h.Write([]byte(f + "\x00" + info.Mode().Perm().String() + "\x00" + hex.EncodeToString(sum[:]) + "\n"))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// cacheKey is where g's result is kept for a project whose files digest to tree.
func (r *Runner) cacheKey(g Generator, tree string) (string, error) {
	b, err := facts.Canonical(map[string]any{"host": g.Host, "argv": g.Argv, "format": g.Format, "profile": g.Profile,
		"timeout": g.Timeout.String(), "table": g.Table, "self": r.self, "binary": r.identity, "tree": tree})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// kept returns the kept results of the generators, by index.
func (r *Runner) kept(ctx context.Context, keys []string) map[int]Host {
	out := map[int]Host{}
	got, err := r.st.CacheGetMany(ctx, Namespace, cacheVersion, keys)
	if err != nil {
		return out
	}
	for i, k := range keys {
		raw, ok := got[k]
		if !ok {
			continue
		}
		var h Host
		if json.Unmarshal(raw, &h) == nil && h.Status == StatusOK && h.Generated != nil {
			out[i] = h
		}
	}
	return out
}

// keep stores the results that succeeded; failing to only costs the next
// evaluation a run.
func (r *Runner) keep(ctx context.Context, keys []string, results []Host, fresh map[int]bool) {
	var entries []store.CacheEntry
	for i, h := range results {
		if !fresh[i] || h.Status != StatusOK {
			continue
		}
		if raw, err := json.Marshal(h); err == nil {
			entries = append(entries, store.CacheEntry{Key: store.CacheKey{Runner: Namespace, Version: cacheVersion, SHA256: keys[i]}, Value: raw})
		}
	}
	if len(entries) > 0 {
		_ = r.st.CachePutMany(ctx, entries)
	}
}
