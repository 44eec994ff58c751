package cache

import (
	"strings"
	"testing"
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
