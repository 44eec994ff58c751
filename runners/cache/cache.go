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
// read, never trusted when it does not check out: per runner and project
// root, a fixed number of rows (shards, by a hash of the path); per path, the
// stamp the runner last read it at, the content's sha256 and the runner's
// facts for that content: a short token (the fs runner's line count and
// binary flag) or a payload of any length (the python runner's classes, the
// go runner's structs and methods), which the runner decodes and checks
// itself. Each row carries a checksum of its entries. A hit needs the same
// runner and version, the same root, and the same stamp taken long enough
// after the file last changed (see Racy). Few rows, because loading them must
// cost far less than the reads they save (a row per path measured slower
// than reading the 600 files it described); more than one, because an edit
// rewrites only the rows of the paths it changed: one row of the python
// stdlib's 3.9 MB index was rewritten whole after every edit, ~45 ms.
//
// A corrupt, foreign (another root, shard, path or version) or undecodable
// row is a miss, and the fresh result replaces it; so is an entry whose
// payload the runner cannot decode or that describes another path. Cache I/O
// errors never fail a runner: the files are read instead.
package cache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/tausik/tausik/store"
)

// Store is the part of *store.Store the cache uses.
type Store interface {
	CacheGetText(ctx context.Context, runner, version string, shas []string) (map[string][]byte, error)
	CachePutText(ctx context.Context, entries []store.CacheText) error
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
// read there. It is safe for concurrent use; Save writes back the shards that
// Record, Forget or Retain changed.
type Index struct {
	st      Store
	runner  string
	version string
	root    string
	shards  [shardCount]shard
}

// shard is the part of an Index stored in one row: the paths whose
// shardOf is its number.
type shard struct {
	mu      sync.Mutex
	entries map[string]entry
	// dirty: changed since loaded; stale: its row was missing, foreign or
	// damaged, so it is written with the next Save even if unchanged;
	// unread: LoadIndexOf left it out, so Save never writes it.
	dirty, stale, unread bool
}

// LoadIndex reads runner's index of root. version is the runner's facts
// version: an index of another version is empty. A nil st, a store that
// fails, or a damaged or foreign row gives an empty index or shard (damaged
// entries are dropped one by one). The rows are decoded in parallel, one
// goroutine a core: a GOROOT-sized index is 7 MB.
func LoadIndex(ctx context.Context, st Store, runner, version, root string) *Index {
	var all [shardCount]bool
	for i := range all {
		all[i] = true
	}
	return load(ctx, st, runner, version, root, all)
}

// LoadIndexOf is LoadIndex for a runner that reads only paths: it reads the
// rows of their shards alone (a hook judging one file reads 1/64th of the
// index), and its Save never writes the others. It must not be Retained.
func LoadIndexOf(ctx context.Context, st Store, runner, version, root string, paths []string) *Index {
	var want [shardCount]bool
	for _, p := range paths {
		want[shardOf(p)] = true
	}
	return load(ctx, st, runner, version, root, want)
}

// load reads the shards want names; the others are left out of the index.
func load(ctx context.Context, st Store, runner, version, root string, want [shardCount]bool) *Index {
	ix := &Index{st: st, runner: runner + ".index", version: version + "+" + indexVersion, root: root}
	keys := make([]string, shardCount)
	var asked []string
	for i := range ix.shards {
		ix.shards[i] = shard{entries: map[string]entry{}, stale: want[i], unread: !want[i]}
		if want[i] {
			keys[i] = ix.key(i)
			asked = append(asked, keys[i])
		}
	}
	if st == nil || len(asked) == 0 {
		return ix
	}
	got, err := st.CacheGetText(ctx, ix.runner, ix.version, asked)
	if err != nil || len(got) == 0 {
		return ix
	}
	var wg sync.WaitGroup
	next := make(chan int, shardCount)
	for i := range shardCount {
		if _, ok := got[keys[i]]; ok && want[i] {
			next <- i
		}
	}
	close(next)
	for range min(runtime.GOMAXPROCS(0), len(got)) {
		wg.Go(func() {
			for i := range next {
				if entries, ok := parseRow(got[keys[i]], root, i); ok {
					ix.shards[i].entries, ix.shards[i].stale = entries, false
				}
			}
		})
	}
	wg.Wait()
	return ix
}

// key is the row key of shard i: the root's hash for shard 0, the key of
// the one row earlier layouts wrote, so that it is replaced rather than left
// behind; the hash of the root and the shard's number for the others.
func (ix *Index) key(i int) string {
	in := ix.root
	if i > 0 {
		in += "\x00" + strconv.Itoa(i)
	}
	sum := sha256.Sum256([]byte(in))
	return hex.EncodeToString(sum[:])
}

// shard returns the shard holding path.
func (ix *Index) shard(path string) *shard { return &ix.shards[shardOf(path)] }

// Lookup returns what the index knew about path when its stamp is unchanged
// and was not racy when recorded.
func (ix *Index) Lookup(path string, s Stamp) (Hit, bool) {
	sh := ix.shard(path)
	sh.mu.Lock()
	e, ok := sh.entries[path]
	sh.mu.Unlock()
	if !ok || e.stamp != s || s.Racy(time.Unix(0, e.seenNS)) {
		return Hit{}, false
	}
	return Hit{SHA256: e.sha, Token: e.token, Payload: e.payload}, true
}

// Record notes that path, stamped s before it was read at seen, holds the
// content h.SHA256, for which the runner's facts are h.Token and h.Payload.
// Save stores it. What the row could not give back unchanged is not
// recorded: a token holding a space (or "-"), a payload or path that is not
// UTF-8 (the row is text), or an entry with neither token nor payload.
func (ix *Index) Record(path string, s Stamp, seen time.Time, h Hit) {
	if !isHex64(h.SHA256) || (h.Token == "" && h.Payload == "") || h.Token == noToken || strings.Contains(h.Token, " ") ||
		!utf8.ValidString(h.Payload) || !utf8.ValidString(path) || path == "" {
		return
	}
	sh := ix.shard(path)
	sh.mu.Lock()
	sh.entries[path] = entry{stamp: s, seenNS: seen.UnixNano(), sha: h.SHA256, token: h.Token, payload: h.Payload}
	sh.dirty = true
	sh.mu.Unlock()
}

// Forget drops path, which is no longer a regular file.
func (ix *Index) Forget(path string) {
	sh := ix.shard(path)
	sh.mu.Lock()
	if _, ok := sh.entries[path]; ok {
		delete(sh.entries, path)
		sh.dirty = true
	}
	sh.mu.Unlock()
}

// Retain drops every path that keep does not hold: a runner that looks at the
// whole repository passes its listing, so that deleted and renamed files do
// not stay in the index for good.
func (ix *Index) Retain(keep []string) {
	set := make(map[string]struct{}, len(keep))
	for _, p := range keep {
		set[p] = struct{}{}
	}
	for i := range ix.shards {
		sh := &ix.shards[i]
		sh.mu.Lock()
		for p := range sh.entries {
			if _, ok := set[p]; !ok {
				delete(sh.entries, p)
				sh.dirty = true
			}
		}
		sh.mu.Unlock()
	}
}

// Save writes back the shards that Record, Forget or Retain changed, and
// with them those whose rows were missing or refused; nothing when nothing
// changed. A store error is returned for the caller to ignore or log: the
// facts already gathered are right either way. Two processes saving the same
// shard at once keep the last one's row, which costs the other's entries a
// re-read, never a wrong answer: every entry holds on its own.
func (ix *Index) Save(ctx context.Context) error {
	if ix.st == nil {
		return nil
	}
	var rows []store.CacheText
	changed := false
	for i := range ix.shards {
		sh := &ix.shards[i]
		sh.mu.Lock()
		changed = changed || sh.dirty
		sh.mu.Unlock()
	}
	if !changed {
		return nil
	}
	for i := range ix.shards {
		sh := &ix.shards[i]
		sh.mu.Lock()
		if sh.unread || !sh.dirty && !sh.stale {
			sh.mu.Unlock()
			continue
		}
		paths := make([]string, 0, len(sh.entries))
		for p := range sh.entries {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		raw, err := formatRow(ix.root, i, paths, sh.entries)
		sh.dirty, sh.stale = false, false
		sh.mu.Unlock()
		if err != nil {
			return err
		}
		rows = append(rows, store.CacheText{Key: store.CacheKey{Runner: ix.runner, Version: ix.version, SHA256: ix.key(i)}, Text: raw})
	}
	return ix.st.CachePutText(ctx, rows)
}
