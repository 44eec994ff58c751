package cache

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseEntry: an index line either parses into an entry that prints back
// to the same fields or is dropped; it never panics and never yields a
// negative size, a malformed sha or the "-" that stands for no token.
func FuzzParseEntry(f *testing.F) {
	f.Add(shaA + " 1 2 420 6 100 100 200 1:0 dir/a b.txt")
	f.Add(shaA + " 1 2 420 -6 100 100 200 1:0 x")
	f.Add("garbage")
	f.Fuzz(func(t *testing.T, line string) {
		p, e, ok := parseEntry(line)
		if !ok {
			return
		}
		if e.stamp.Size < 0 || !isHex64(e.sha) || p == "" || e.token == noToken {
			t.Fatalf("parsed %q into %q %+v", line, p, e)
		}
		if !strings.HasSuffix(line, p) {
			t.Fatalf("path %q is not the line's tail", p)
		}
	})
}

// FuzzParseRow: a row either is refused or gives entries that each have a
// UTF-8 path of its shard, a well-formed sha and a token or a UTF-8 payload;
// it never panics.
func FuzzParseRow(f *testing.F) {
	f.Add("2:/r" + row("", shardOf("a.txt"), shaA+" 1 2 420 6 100 100 200 1:0 a.txt", "p")[2:])
	f.Add("2:/r1:03:abc")
	f.Fuzz(func(t *testing.T, text string) {
		n := shardOf("a.txt")
		entries, ok := parseRow([]byte(text), "/r", n)
		if !ok {
			return
		}
		for p, e := range entries {
			if p == "" || shardOf(p) != n || !utf8.ValidString(p) || !utf8.ValidString(e.payload) || !isHex64(e.sha) || e.token == noToken || (e.token == "" && e.payload == "") {
				t.Fatalf("row %q gave %q %+v", text, p, e)
			}
		}
	})
}
