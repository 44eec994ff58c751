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
// runner's classes), which the runner decodes and checks itself. A hit
// needs the same runner and version, the same root, and the same stamp taken
// long enough after the file last changed (see Racy). One row, because
// loading it must cost far less than the reads it saves: a row per path
// measured slower than reading the 600 files it described.
//
// A corrupt, foreign (another root, path or version) or undecodable row is a
// miss, and the fresh result replaces it; so is an entry whose payload the
// runner cannot decode or that describes another path. Cache I/O errors never fail a
// runner: the files are read instead.
package cache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
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

// indexVersion is the layout of an Index row; part of its cache version.
const indexVersion = "index/3"

// noToken stands in an index line for an entry without a token (its facts are
// all in the payload).
const noToken = "-"

// entry is one path's Index entry.
type entry struct {
	stamp   Stamp
	seenNS  int64
	sha     string
	token   string
	payload string
}

// indexRow is an Index as stored: one row per runner and root, its entries
// one line each ("sha dev ino mode size mtime ctime seen token path"), so that
// loading the index of a large project is one row of flat strings, not
// thousands of rows or objects to decode (a list of lines, not one string
// of them: a JSON string holding newlines decodes several times slower).
// Payloads, when any entry has one, are a list beside the lines, the i-th
// payload belonging to the i-th line ("" for none); a list of another
// length than the lines is dropped whole.
type indexRow struct {
	Root     string   `json:"root"`
	Entries  []string `json:"entries"`
	Payloads []string `json:"payloads,omitempty"`
}

// Hit is what the Index knows about a path's content: its sha256 and the
// runner's facts for it, a Token (no spaces), a Payload (any
// UTF-8 text) or both.
type Hit struct {
	SHA256  string
	Token   string
	Payload string
}

// Index maps a runner's paths under one root to the content and facts it last
// read there. It is safe for concurrent use; Save writes it back when Record
// or Forget changed it.
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
// fails, or a damaged or foreign row gives an empty index (damaged lines are
// dropped one by one).
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
	var row indexRow
	if json.Unmarshal(raw, &row) != nil || row.Root != root {
		return ix
	}
	if len(row.Payloads) != len(row.Entries) {
		row.Payloads = nil
	}
	for i, line := range row.Entries {
		p, e, ok := parseEntry(line)
		if ok && row.Payloads != nil {
			e.payload = row.Payloads[i]
		}
		if ok && (e.token != "" || e.payload != "") {
			ix.entries[p] = e
		}
	}
	return ix
}

// parseEntry reads one line of an index row; ok is false for anything
// malformed.
func parseEntry(line string) (string, entry, bool) {
	f := strings.SplitN(line, " ", 10)
	if len(f) != 10 || !isHex64(f[0]) || f[8] == "" || f[9] == "" {
		return "", entry{}, false
	}
	var n [7]int64
	for i := range n {
		v, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			return "", entry{}, false
		}
		n[i] = v
	}
	e := entry{stamp: Stamp{Dev: uint64(n[0]), Ino: uint64(n[1]), Mode: uint32(n[2]), Size: n[3], MtimeNS: n[4], CtimeNS: n[5]},
		seenNS: n[6], sha: f[0], token: f[8]}
	if e.token == noToken {
		e.token = ""
	}
	if e.stamp.Size < 0 {
		return "", entry{}, false
	}
	return f[9], e, true
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

// Save writes the index back when Record or Forget changed it. A store error
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
	lines := make([]string, len(paths))
	payloads := make([]string, len(paths))
	withPayloads := false
	for i, p := range paths {
		e := ix.entries[p]
		tok := e.token
		if tok == "" {
			tok = noToken
		}
		lines[i] = fmt.Sprintf("%s %d %d %d %d %d %d %d %s %s", e.sha, e.stamp.Dev, e.stamp.Ino, e.stamp.Mode, e.stamp.Size,
			e.stamp.MtimeNS, e.stamp.CtimeNS, e.seenNS, tok, p)
		payloads[i] = e.payload
		withPayloads = withPayloads || e.payload != ""
	}
	ix.changed = false
	ix.mu.Unlock()
	row := indexRow{Root: ix.root, Entries: lines}
	if withPayloads {
		row.Payloads = payloads
	}
	raw, err := json.Marshal(row)
	if err != nil {
		return err
	}
	return ix.st.CachePutMany(ctx, []store.CacheEntry{{Key: store.CacheKey{Runner: ix.runner, Version: ix.version, SHA256: ix.key()}, Value: raw}})
}

func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
