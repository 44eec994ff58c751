package cache

import (
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Each shard of an Index is stored as one text value (store.CachePutText),
// read back by slicing rather than decoding: encoding/json took ~1.3 ms over
// the 200 KB index of a 600-module python project, a third of what the cache
// saves, and even a JSON string with an escape of its own cost ~10 ms to
// check and unescape at the python stdlib's 3.9 MB. The text holds
// length-prefixed fields ("<len>:<bytes>"): the root, the shard's number, a
// checksum of the rest, then for each entry its line ("sha dev ino mode size
// mtime ctime seen token path") and its payload ("" for none). Lengths frame
// the fields, so paths and payloads may hold any UTF-8 text; the checksum
// makes a row that was damaged or edited by hand, framing intact, a miss
// rather than facts.

// indexVersion is the layout of an Index row; part of its cache version.
const indexVersion = "index/7"

// shardCount is how many rows an Index is stored in. An edit rewrites the
// rows of the paths it changed: at 64, a row holds ~60 KB of the python
// stdlib's 3.9 MB and ~110 KB of GOROOT's 7 MB, and loading 64 rows instead
// of one costs next to nothing (one query; the bytes are the same).
const shardCount = 64

// shardOf is the shard that holds path.
func shardOf(path string) int {
	return int(crc32.Checksum([]byte(path), castagnoli) % shardCount)
}

// noToken stands in an index line for an entry without a token (its facts are
// all in the payload).
const noToken = "-"

// formatRow encodes entries, for paths in that order, as the row of shard
// n of root.
func formatRow(root string, n int, paths []string, entries map[string]entry) (string, error) {
	if !utf8.ValidString(root) {
		return "", errRootNotUTF8 // paths and payloads are checked by Record
	}
	size := 0
	for _, p := range paths {
		size += len(p) + len(entries[p].payload) + 200 // the line's numbers and the frames
	}
	body := make([]byte, 0, size)
	var line []byte
	for _, p := range paths {
		e := entries[p]
		tok := e.token
		if tok == "" {
			tok = noToken
		}
		line = append(line[:0], e.sha...)
		for _, n := range []uint64{e.stamp.Dev, e.stamp.Ino, uint64(e.stamp.Mode)} {
			line = strconv.AppendUint(append(line, ' '), n, 10)
		}
		for _, n := range []int64{e.stamp.Size, e.stamp.MtimeNS, e.stamp.CtimeNS, e.seenNS} {
			line = strconv.AppendInt(append(line, ' '), n, 10)
		}
		line = append(append(append(append(line, ' '), tok...), ' '), p...)
		body = appendField(appendField(body, line), e.payload)
	}
	head := appendField(appendField(appendField(nil, root), strconv.Itoa(n)), checksum(body))
	return string(head) + string(body), nil
}

// appendField appends s to b as a length-prefixed field.
func appendField[T string | []byte](b []byte, s T) []byte {
	b = strconv.AppendInt(b, int64(len(s)), 10)
	return append(append(b, ':'), s...)
}

// checksum is the crc32c of a row's entries, in hex: it tells a damaged or
// edited row from the one written, at memory speed (sha256 took 7 ms per
// load of a GOROOT-sized row); it guards against accidents, not forgers,
// who could write a row's facts as well.
func checksum(body []byte) string {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], crc32.Checksum(body, castagnoli))
	return hex.EncodeToString(b[:])
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// parseRow decodes the row of shard n of root. ok is false for a value that
// is not such a row (another root's or shard's, or not a row at all). A
// malformed entry, or one of a path another shard holds, is dropped; a
// broken frame drops everything from there on, which can no longer be told
// apart.
func parseRow(b []byte, root string, n int) (map[string]entry, bool) {
	if !utf8.Valid(b) { // Record admits UTF-8 only, and the runners' decoders may count on it
		return nil, false
	}
	text := string(b)
	r, rest, ok := field(text)
	if !ok || r != root {
		return nil, false
	}
	num, rest, ok := field(rest)
	if !ok || num != strconv.Itoa(n) {
		return nil, false
	}
	sum, rest, ok := field(rest)
	if !ok || sum != checksum(b[len(b)-len(rest):]) { // the bytes, not a copy of rest
		return nil, false
	}
	count := 0 // entries, counted first: growing the map as it fills was a quarter of a load
	for r := rest; r != ""; count++ {
		_, after, ok1 := field(r)
		_, after, ok2 := field(after)
		if !ok1 || !ok2 {
			break
		}
		r = after
	}
	entries := make(map[string]entry, count)
	for rest != "" {
		line, after, ok1 := field(rest)
		payload, after, ok2 := field(after)
		if !ok1 || !ok2 {
			break
		}
		rest = after
		if p, e, ok := parseEntry(line); ok && (e.token != "" || payload != "") && shardOf(p) == n {
			e.payload = payload
			entries[p] = e
		}
	}
	return entries, true
}

// field splits the length-prefixed field at the start of s from what
// follows; ok is false when s does not start with one.
func field(s string) (f, rest string, ok bool) {
	i := strings.IndexByte(s, ':')
	if i < 1 || i > 10 {
		return "", "", false
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil || n < 0 || n > len(s)-i-1 || s[:i] != strconv.Itoa(n) {
		return "", "", false
	}
	return s[i+1 : i+1+n], s[i+1+n:], true
}

// parseEntry reads one line of an index row; ok is false for anything
// malformed.
func parseEntry(line string) (string, entry, bool) {
	var f [10]string // split without allocating: a row holds thousands of lines
	rest := line
	for i := range 9 {
		var ok bool
		if f[i], rest, ok = strings.Cut(rest, " "); !ok {
			return "", entry{}, false
		}
	}
	f[9] = rest
	if !isHex64(f[0]) || f[8] == "" || f[9] == "" {
		return "", entry{}, false
	}
	dev, err1 := strconv.ParseUint(f[1], 10, 64)
	ino, err2 := strconv.ParseUint(f[2], 10, 64)
	mode, err3 := strconv.ParseUint(f[3], 10, 32)
	var n [4]int64 // size, mtime, ctime, seen
	for i := range n {
		v, err := strconv.ParseInt(f[i+4], 10, 64)
		if err != nil {
			return "", entry{}, false
		}
		n[i] = v
	}
	if err1 != nil || err2 != nil || err3 != nil || n[0] < 0 {
		return "", entry{}, false
	}
	e := entry{stamp: Stamp{Dev: dev, Ino: ino, Mode: uint32(mode), Size: n[0], MtimeNS: n[1], CtimeNS: n[2]},
		seenNS: n[3], sha: f[0], token: f[8]}
	if e.token == noToken {
		e.token = ""
	}
	return f[9], e, true
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
