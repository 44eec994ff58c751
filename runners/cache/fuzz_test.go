package cache

import (
	"bytes"
	"encoding/json"
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

// FuzzQuote: the row a UTF-8 text is written as is valid JSON holding no
// JSON escape and reads back as that text; any other value either is refused
// or is the one row quote writes for what it reads as, so a row has one
// spelling and nothing outside it reads as facts; nothing panics.
func FuzzQuote(f *testing.F) {
	f.Add([]byte(`"2:/r66:x"`))
	f.Add([]byte("\"a\x7fb\u0080b\u0080d\u0080p\u0080:\u00e9\u2028\xc2\""))
	f.Add([]byte(`"a\"b"`))
	f.Add([]byte("\"\u0080\""))
	f.Add([]byte("\"\u0080z\""))
	f.Add([]byte("\"\xf9\""))
	f.Add([]byte(`["x"]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if text := string(raw); utf8.ValidString(text) {
			q := quote(text)
			var s string
			if err := json.Unmarshal(q, &s); err != nil || bytes.IndexByte(q[1:len(q)-1], '\\') >= 0 {
				t.Fatalf("%q: quoted as %q (%v)", text, q, err)
			}
			if back, ok := unquote(q); !ok || string(back) != text {
				t.Fatalf("%q: quoted as %q, read back as %q %v", text, q, back, ok)
			}
		}
		b, ok := unquote(raw)
		if !ok {
			return
		}
		if text := string(b); !json.Valid(raw) || !bytes.Equal(quote(text), raw) {
			t.Fatalf("%q was read as %q, which quotes as %q", raw, text, quote(text))
		}
	})
}

// FuzzParseRow: a row either is refused or gives entries that each have a
// path, a well-formed sha and a token or a payload; it never panics.
func FuzzParseRow(f *testing.F) {
	f.Add("2:/r" + row("", shardOf("a.txt"), shaA+" 1 2 420 6 100 100 200 1:0 a.txt", "p")[2:])
	f.Add("2:/r1:03:abc")
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return
		}
		n := shardOf("a.txt")
		entries, ok := parseRow(quote(text), "/r", n)
		if !ok {
			return
		}
		for p, e := range entries {
			if p == "" || shardOf(p) != n || !isHex64(e.sha) || e.token == noToken || (e.token == "" && e.payload == "") {
				t.Fatalf("row %q gave %q %+v", text, p, e)
			}
		}
	})
}
