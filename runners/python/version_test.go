package python

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tausik/tausik/runners/internal/pyscan"
	"github.com/tausik/tausik/runners/internal/pyscan/pyscantest"
	"github.com/tausik/tausik/runners/internal/sourcetest"
)

var update = flag.Bool("update", false, "record the scanner's facts over the test corpus in "+versionFacts)

// versionFacts records, for Version, a digest of the scanner's facts for
// every input of the test corpus.
const versionFacts = "testdata/version_facts.txt"

// testCorpus is what the codec and version tests scan: the golden and edge
// cases, the fuzz seeds, and every .py file of the repository's testdata and
// policy fixtures.
func testCorpus(t testing.TB) []sourcetest.Input {
	t.Helper()
	var in []sourcetest.Input
	for _, c := range pyscantest.GoldenCases {
		in = append(in, sourcetest.Input{Name: "golden case " + strconv.Quote(c.Name), Src: []byte(c.Src)})
	}
	for i, c := range pyscantest.EdgeCases {
		in = append(in, sourcetest.Input{Name: fmt.Sprintf("edge case %d %.30q", i, c.Src), Src: []byte(c.Src)})
	}
	seeds, err := filepath.Glob("../internal/pyscan/testdata/fuzz/FuzzScan/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range seeds {
		in = append(in, sourcetest.Input{Name: "fuzz seed " + filepath.Base(p), Src: fuzzSeed(t, p)})
	}
	for _, dir := range []string{"../../testdata", "../../policies"} {
		for _, rel := range pyscantest.ListPy(t, dir) {
			if strings.Contains("/"+rel, "/node_modules/") {
				continue
			}
			src, err := os.ReadFile(filepath.Join(dir, rel))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, sourcetest.Input{Name: filepath.Base(dir) + "/" + rel, Src: src})
		}
	}
	return in
}

// fuzzSeed reads the []byte value of a seed file of the fuzz corpus.
func fuzzSeed(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, v, _ := strings.Cut(strings.TrimSpace(string(data)), "\n")
	q, ok := strings.CutPrefix(v, "[]byte(")
	if !ok || !strings.HasSuffix(q, ")") {
		t.Fatalf("%s: not a []byte seed", path)
	}
	s, err := strconv.Unquote(strings.TrimSuffix(q, ")"))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return []byte(s)
}

// TestCacheCodecRoundTrip: the cache payload of every corpus file's facts
// decodes to exactly those facts.
func TestCacheCodecRoundTrip(t *testing.T) {
	sc := pyscan.NewScanner()
	for _, in := range testCorpus(t) {
		f := sc.Scan("dir/x.py", in.Src)
		payload, ok := encodeFacts(f)
		if !ok {
			t.Errorf("%s: facts not encodable: %+v", in.Name, f)
			continue
		}
		size := int64(len(in.Src))
		if got, ok := decodeFacts("dir/x.py", size, payload); !ok || !reflect.DeepEqual(got, f) {
			t.Errorf("%s: payload %q decodes to %+v (%v), want %+v", in.Name, payload, got, ok, f)
		}
		if _, ok := decodeFacts("dir/y.py", size, payload); ok {
			t.Errorf("%s: the payload was accepted for another path", in.Name)
		}
	}
}

// FuzzCacheCodecOfScans: whatever the scanner says of arbitrary bytes, the
// cache payload gives back exactly. Seeds: the test corpus.
func FuzzCacheCodecOfScans(f *testing.F) {
	for _, in := range testCorpus(f) {
		f.Add(in.Src)
	}
	sc := pyscan.NewScanner()
	f.Fuzz(func(t *testing.T, src []byte) {
		got := sc.Scan("fuzz.py", src)
		payload, ok := encodeFacts(got)
		if !ok {
			t.Fatalf("facts the cache cannot keep: %+v", got)
		}
		if back, ok := decodeFacts("fuzz.py", int64(len(src)), payload); !ok || !reflect.DeepEqual(back, got) {
			t.Fatalf("payload %q decodes to %+v (%v), want %+v", payload, back, ok, got)
		}
	})
}

// FuzzDecodeFacts: a payload either is refused or decodes to facts that
// encode back to the same payload; it never panics.
func FuzzDecodeFacts(f *testing.F) {
	f.Add("a.py", int64(40), "4:a.pyP|1 A B,C d,e|3 F  ")
	f.Add("a.py", int64(9), "4:a.pyE2 unexpected indent")
	f.Add("a.py", int64(0), "4:a.pyP")
	f.Fuzz(func(t *testing.T, path string, size int64, payload string) {
		got, ok := decodeFacts(path, size, payload)
		if !ok {
			return
		}
		if got.Path != path {
			t.Fatalf("decoded %q as the facts of %q", payload, got.Path)
		}
		if again, ok := encodeFacts(got); !ok || again != payload {
			t.Fatalf("payload %q decodes to %+v, which encodes to %q (%v)", payload, got, again, ok)
		}
	})
}

// factsDigest is a short digest of what the scanner says of src and of its
// cache payload.
func factsDigest(t testing.TB, sc *pyscan.Scanner, src []byte) string {
	f := sc.Scan("corpus.py", src)
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := encodeFacts(f)
	sum := sha256.Sum256(append(append(b, '\n'), payload...))
	return hex.EncodeToString(sum[:8])
}

// TestVersionGuardsCachedFacts fails when the scanner's facts (or their
// cache payload) for an input of the test corpus differ from those recorded
// for Version (see sourcetest).
func TestVersionGuardsCachedFacts(t *testing.T) {
	sc := pyscan.NewScanner()
	g := sourcetest.Guard{File: versionFacts, Version: Version, Bump: "runners/python/cache.go",
		Rerun: "go test ./runners/python -run TestVersionGuardsCachedFacts -update", Scanner: "the python scanner's facts"}
	g.Check(t, testCorpus(t), func(src []byte) string { return factsDigest(t, sc, src) }, *update)
}
