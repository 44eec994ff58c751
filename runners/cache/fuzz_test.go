package cache

import (
	"encoding/json"
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

// FuzzJSONString: on any valid JSON, the fast path reads a string exactly as
// encoding/json does, and refuses what encoding/json refuses.
func FuzzJSONString(f *testing.F) {
	f.Add([]byte(`"2:/r66:x"`))
	f.Add([]byte(`"a\"b\\c\u2028"`))
	f.Add([]byte(`["x"]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		var want string
		wantOK := json.Unmarshal(raw, &want) == nil
		got, ok := jsonString(raw)
		if ok != wantOK || got != want {
			t.Fatalf("%q: jsonString %q %v, encoding/json %q %v", raw, got, ok, want, wantOK)
		}
	})
}

// FuzzParseRow: a row either is refused or gives entries that each have a
// path, a well-formed sha and a token or a payload; it never panics.
func FuzzParseRow(f *testing.F) {
	f.Add("2:/r" + row("", shaA+" 1 2 420 6 100 100 200 1:0 a.txt", "p")[2:])
	f.Add("2:/r3:abc")
	f.Fuzz(func(t *testing.T, text string) {
		raw, err := json.Marshal(text)
		if err != nil {
			return
		}
		entries, ok := parseRow(raw, "/r")
		if !ok {
			return
		}
		for p, e := range entries {
			if p == "" || !isHex64(e.sha) || e.token == noToken || (e.token == "" && e.payload == "") {
				t.Fatalf("row %q gave %q %+v", text, p, e)
			}
		}
	})
}
