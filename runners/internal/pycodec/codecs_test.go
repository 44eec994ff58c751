package pycodec

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"testing"
)

// refPython returns the interpreter the codecs are compared with:
// $TAUSIK_PY_REF or python3 from PATH. Without one the test is skipped, loudly.
func refPython(t testing.TB) string {
	t.Helper()
	name := os.Getenv("TAUSIK_PY_REF")
	if name == "" {
		name = "python3"
	}
	py, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("SKIP: no %s on PATH (%v): the comparison with CPython's codecs needs a Python interpreter", name, err)
	}
	return py
}

// TestSingleByteCodecsMatchCPython decodes every byte 0x00-0xFF with each
// single-byte codec and compares with CPython's codecs: the same character,
// and an error exactly where CPython leaves a byte undefined. The ASCII half
// must be the identity (decode skips all-ASCII sources).
func TestSingleByteCodecsMatchCPython(t *testing.T) {
	py := refPython(t)
	var names []string
	for name, c := range codecs {
		if c.multi == nil {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	script := `
import json, sys
out = {}
for name in sys.argv[1:]:
    row = []
    for b in range(256):
        try:
            row.append(ord(bytes([b]).decode(name)))
        except UnicodeDecodeError:
            row.append(-1)
    out[name] = row
print(json.dumps(out))
`
	raw, err := exec.Command(py, append([]string{"-c", script}, names...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	var want map[string][]int
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(names) {
		t.Fatalf("CPython decoded %d codecs, want %d", len(want), len(names))
	}
	for _, name := range names {
		c := codecs[name]
		var bad []string
		for b := 0; b < 256; b++ {
			got := b
			if b >= 0x80 {
				r, ok := c.high(byte(b))
				got = int(r)
				if !ok {
					got = -1
				}
			}
			if got != want[name][b] {
				bad = append(bad, fmt.Sprintf("%02X: CPython %d, here %d", b, want[name][b], got))
			}
		}
		if len(bad) > 0 {
			t.Errorf("codec %s differs from CPython: %v", name, bad)
		}
	}
}

// TestCodecLookup checks the alias spellings a coding cookie may use.
func TestCodecLookup(t *testing.T) {
	for name, want := range map[string]string{
		"latin-1": "latin_1", "iso-8859-1": "latin_1", "Latin1": "latin_1", "ISO_8859-15": "iso8859_15",
		"koi8-r": "koi8_r", "cp1252": "cp1252", "windows-1252": "cp1252", "utf8": "utf_8",
		"US-ASCII": "ascii", "euc-jp": "euc_jp", "Shift_JIS": "shift_jis",
	} {
		c := lookupCodec(name)
		if c == nil || c != codecs[want] {
			t.Errorf("lookupCodec(%q) = %v, want codec %s", name, c, want)
		}
	}
	for _, name := range []string{"uft-8", "bogus", "rot13", ""} {
		if c := lookupCodec(name); c != nil {
			t.Errorf("lookupCodec(%q) = %v, want unknown", name, c)
		}
	}
}

// TestCodecAliasesMatchCPython: every spelling the scanner knows names, to
// CPython's codec registry, the codec it decodes with here.
func TestCodecAliasesMatchCPython(t *testing.T) {
	py := refPython(t)
	var names []string
	for n := range codecs {
		names = append(names, n)
	}
	for n := range codecAliases {
		names = append(names, n)
	}
	slices.Sort(names)
	script := `
import codecs, json, sys
print(json.dumps({n: codecs.lookup(n).name for n in sys.argv[1:]}))
`
	raw, err := exec.Command(py, append([]string{"-c", script}, names...)...).Output()
	if err != nil {
		t.Fatalf("CPython does not know every name: %v", err)
	}
	var canon map[string]string
	if err := json.Unmarshal(raw, &canon); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		want := lookupCodec(canon[n])
		if want == nil {
			t.Errorf("CPython's name %q for %q is unknown here", canon[n], n)
			continue
		}
		if got := lookupCodec(n); got != want {
			t.Errorf("%q: decodes as %s here, CPython says %s", n, got.errName, canon[n])
		}
	}
}
