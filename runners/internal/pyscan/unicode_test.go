package pyscan

import (
	"encoding/json"
	"os/exec"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// pyUnicode is what the reference interpreter says about identifiers.
type pyUnicode struct {
	Version  string     `json:"version"`
	Assigned [][2]rune  `json:"assigned"` // ranges of assigned code points
	Start    [][2]rune  `json:"start"`    // ranges of chr(c).isidentifier()
	Continue [][2]rune  `json:"continue"` // ranges of ("a" + chr(c)).isidentifier()
	NFKC     [][]string `json:"nfkc"`     // identifier characters NFKC changes: [char, normalised]
}

const pyUnicodeScript = `
import json, sys, unicodedata
def ranges(pred):
    out, lo = [], None
    for c in range(0x110000):
        if pred(c):
            if lo is None: lo = c
        elif lo is not None:
            out.append([lo, c - 1]); lo = None
    if lo is not None: out.append([lo, 0x10FFFF])
    return out
cont = lambda c: ("a" + chr(c)).isidentifier()
nfkc = []
for c in range(0x80, 0x110000):
    if cont(c):
        n = unicodedata.normalize("NFKC", chr(c))
        if n != chr(c): nfkc.append([chr(c), n])
json.dump({"version": unicodedata.unidata_version,
           "assigned": ranges(lambda c: unicodedata.category(chr(c)) != "Cn"),
           "start": ranges(lambda c: chr(c).isidentifier()),
           "continue": ranges(cont), "nfkc": nfkc}, sys.stdout)
`

func inRanges(rs [][2]rune, r rune) bool {
	lo, hi := 0, len(rs)
	for lo < hi {
		m := (lo + hi) / 2
		switch {
		case r < rs[m][0]:
			hi = m
		case r > rs[m][1]:
			lo = m + 1
		default:
			return true
		}
	}
	return false
}

// TestIdentifierCharactersMatchCPython compares the XID_Start and
// XID_Continue tests and the NFKC normalisation of identifiers with
// CPython's, for every code point both Unicode versions assign.
func TestIdentifierCharactersMatchCPython(t *testing.T) {
	py := refPython(t)
	out, err := exec.Command(py, "-c", pyUnicodeScript).Output()
	if err != nil {
		t.Fatal(err)
	}
	var u pyUnicode
	if err := json.Unmarshal(out, &u); err != nil {
		t.Fatal(err)
	}
	cn := unicode.Categories["Cn"]
	goAssigned := func(r rune) bool {
		// Unicode 15.1 additions the scanner knows although Go's tables are 15.0.
		if continue151[r] || r >= extIFirst && r <= extILast {
			return u.Version >= "15.1"
		}
		return !unicode.Is(cn, r)
	}
	var bad []string
	compared := 0
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if !inRanges(u.Assigned, r) || !goAssigned(r) {
			continue
		}
		compared++
		if got, want := isXIDStart(r), inRanges(u.Start, r); got != want {
			bad = append(bad, string(r)+" start")
		}
		if got, want := isXIDContinue(r), inRanges(u.Continue, r); got != want {
			bad = append(bad, string(r)+" continue")
		}
	}
	if len(bad) > 0 {
		t.Errorf("%d identifier characters differ from CPython (Unicode %s vs Go's %s), first: %q",
			len(bad), u.Version, unicode.Version, bad[:min(len(bad), 20)])
	}
	changed := map[string]string{}
	for _, p := range u.NFKC {
		changed[p[0]] = p[1]
	}
	nfkcBad := 0
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if !inRanges(u.Continue, r) || !goAssigned(r) {
			continue
		}
		want, ok := changed[string(r)]
		if !ok {
			want = string(r)
		}
		if got := norm.NFKC.String(string(r)); got != want {
			nfkcBad++
			if nfkcBad <= 10 {
				t.Errorf("NFKC(%q U+%04X) = %q, CPython %q", r, r, got, want)
			}
		}
	}
	t.Logf("compared %d code points (CPython's Unicode %s, Go's %s); %d NFKC differences", compared, u.Version, unicode.Version, nfkcBad)
}
