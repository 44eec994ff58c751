// Package cache lets a file-reading runner skip the files that did not change
// since it last read them, with the store's fact cache behind it.
//
// What is expensive about a file's facts is opening and reading it: hashing
// and counting lines run at memory speed, but a warm evaluation of a 600-file
// project spends most of its fs time in open, read and close. Knowing a
// file's content hash therefore needs a way to know the content has not
// changed without reading it, which is what git's index does: a Stamp (device,
// inode, size, modification and change times, mode) taken with one lstat.
//
// The Index lives in the store's fact_cache table and is validated on every
// read, never trusted when it does not check out: one row per runner and
// project root; per path, the stamp the runner last read it at, the content's
// sha256 and the runner's facts for that content: a short token (the fs
// runner's line count and binary flag) or a payload of any length (the python
// runner's classes, the go runner's structs and methods), which the runner
// decodes and checks itself. The row carries a checksum of its entries. A hit
// needs the same runner and version, the same root, and the same stamp taken
// long enough after the file last changed (see Racy). One row, because
// loading it must cost far less than the reads it saves: a row per path
// measured slower than reading the 600 files it described.
//
// A corrupt, foreign (another root, path or version) or undecodable row is a
// miss, and the fresh result replaces it; so is an entry whose payload the
// runner cannot decode or that describes another path. Cache I/O errors
// never fail a runner: the files are read instead.
package cache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/tausik/tausik/store"
)

// Store is the part of *store.Store the cache uses.
type Store interface {
	CacheGetMany(ctx context.Context, runner, version string, shas []string) (map[string]json.RawMessage, error)
	CachePutMany(ctx context.Context, entries []store.CacheEntry) error
}

// Stamp is what one lstat says about a regular file: enough to tell, without
// reading it, that its content is what it was when the stamp was taken.
type Stamp struct {
	Dev     uint64 `json:"dev"`
	Ino     uint64 `json:"ino"`
	Mode    uint32 `json:"mode"`
	Size    int64  `json:"size"`
	MtimeNS int64  `json:"mtime_ns"`
	CtimeNS int64  `json:"ctime_ns"`
}

// Racy reports whether a stamp taken at seen may hide a change: a file
// written again within its file system's timestamp granularity of when it
// was read can keep its size and times. Such an entry is re-read, and the
// fresh stamp is trusted once the file has been still long enough. Whole-second
// times mark a coarse file system (FAT, HFS+, ext3), trusted after 2 s;
// otherwise the kernel's clock tick bounds it, and 100 ms is ample.
func (s Stamp) Racy(seen time.Time) bool {
	last := max(s.MtimeNS, s.CtimeNS)
	margin := 100 * time.Millisecond
	if s.MtimeNS%int64(time.Second) == 0 && s.CtimeNS%int64(time.Second) == 0 {
		margin = 2 * time.Second
	}
	return seen.UnixNano()-last < margin.Nanoseconds()
}

// entry is one path's Index entry.
type entry struct {
	stamp   Stamp
	seenNS  int64
	sha     string
	token   string
	payload string
}

// Hit is what the Index knows about a path's content: its sha256 and the
// runner's facts for it, a Token (no spaces), a Payload (any UTF-8 text) or
// both.
type Hit struct {
	SHA256  string
	Token   string
	Payload string
}

// Index maps a runner's paths under one root to the content and facts it last
// read there. It is safe for concurrent use; Save writes it back when Record,
// Forget or Retain changed it.
type Index struct {
	st      Store
	runner  string
	version string
	root    string

	mu      sync.Mutex
	entries map[string]entry
	changed bool
}

// LoadIndex reads runner's index of root. version is the runner's facts
// version: an index of another version is empty. A nil st, a store that
// fails, or a damaged or foreign row gives an empty index (damaged entries
// are dropped one by one).
func LoadIndex(ctx context.Context, st Store, runner, version, root string) *Index {
	ix := &Index{st: st, runner: runner + ".index", version: version + "+" + indexVersion, root: root, entries: map[string]entry{}}
	if st == nil {
		return ix
	}
	got, err := st.CacheGetMany(ctx, ix.runner, ix.version, []string{ix.key()})
	if err != nil {
		return ix
	}
	raw, ok := got[ix.key()]
	if !ok {
		return ix
	}
	if entries, ok := parseRow(raw, root); ok {
		ix.entries = entries
	}
	return ix
}

// key is the row key of the index: the root's hash.
func (ix *Index) key() string {
	sum := sha256.Sum256([]byte(ix.root))
	return hex.EncodeToString(sum[:])
}

// Lookup returns what the index knew about path when its stamp is unchanged
// and was not racy when recorded.
func (ix *Index) Lookup(path string, s Stamp) (Hit, bool) {
	ix.mu.Lock()
	e, ok := ix.entries[path]
	ix.mu.Unlock()
	if !ok || e.stamp != s || s.Racy(time.Unix(0, e.seenNS)) {
		return Hit{}, false
	}
	return Hit{SHA256: e.sha, Token: e.token, Payload: e.payload}, true
}

// Record notes that path, stamped s before it was read at seen, holds the
// content h.SHA256, for which the runner's facts are h.Token and h.Payload.
// Save stores it. What the row could not give back unchanged is not
// recorded: a token holding a space (or "-"), a payload or path that is not
// UTF-8 (JSON would alter it), or an entry with neither token nor payload.
func (ix *Index) Record(path string, s Stamp, seen time.Time, h Hit) {
	if !isHex64(h.SHA256) || (h.Token == "" && h.Payload == "") || h.Token == noToken || strings.Contains(h.Token, " ") ||
		!utf8.ValidString(h.Payload) || !utf8.ValidString(path) || path == "" {
		return
	}
	ix.mu.Lock()
	ix.entries[path] = entry{stamp: s, seenNS: seen.UnixNano(), sha: h.SHA256, token: h.Token, payload: h.Payload}
	ix.changed = true
	ix.mu.Unlock()
}

// Forget drops path, which is no longer a regular file.
func (ix *Index) Forget(path string) {
	ix.mu.Lock()
	if _, ok := ix.entries[path]; ok {
		delete(ix.entries, path)
		ix.changed = true
	}
	ix.mu.Unlock()
}

// Retain drops every path that keep does not hold: a runner that looks at the
// whole repository passes its listing, so that deleted and renamed files do
// not stay in the index for good.
func (ix *Index) Retain(keep []string) {
	set := make(map[string]struct{}, len(keep))
	for _, p := range keep {
		set[p] = struct{}{}
	}
	ix.mu.Lock()
	for p := range ix.entries {
		if _, ok := set[p]; !ok {
			delete(ix.entries, p)
			ix.changed = true
		}
	}
	ix.mu.Unlock()
}

// Save writes the index back when Record, Forget or Retain changed it. A store error
// is returned for the caller to ignore or log: the facts already gathered are
// right either way. Two processes saving at once keep the last one's index,
// which costs the other's entries a re-read, never a wrong answer.
func (ix *Index) Save(ctx context.Context) error {
	ix.mu.Lock()
	if ix.st == nil || !ix.changed {
		ix.mu.Unlock()
		return nil
	}
	paths := make([]string, 0, len(ix.entries))
	for p := range ix.entries {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	raw, err := formatRow(ix.root, paths, ix.entries)
	ix.changed = false
	ix.mu.Unlock()
	if err != nil {
		return err
	}
	return ix.st.CachePutMany(ctx, []store.CacheEntry{{Key: store.CacheKey{Runner: ix.runner, Version: ix.version, SHA256: ix.key()}, Value: raw}})
}
