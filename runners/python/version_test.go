package python

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "record the scanner's facts over the test corpus in "+versionFacts)

// versionFacts records, for Version, a digest of the scanner's facts for
// every input of the test corpus.
const versionFacts = "testdata/version_facts.txt"

// corpusInput is one source of the test corpus, named for messages.
type corpusInput struct {
	name string
	src  []byte
}

// testCorpus is what the codec and version tests scan: the golden and edge
// cases, the fuzz seeds, and every .py file of the repository's testdata and
// policy fixtures.
func testCorpus(t testing.TB) []corpusInput {
	t.Helper()
	var in []corpusInput
	for _, c := range goldenCases {
		in = append(in, corpusInput{"golden case " + strconv.Quote(c.name), []byte(c.src)})
	}
	for i, c := range edgeCases {
		in = append(in, corpusInput{fmt.Sprintf("edge case %d %.30q", i, c.src), []byte(c.src)})
	}
	seeds, err := filepath.Glob("testdata/fuzz/FuzzScan/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range seeds {
		in = append(in, corpusInput{"fuzz seed " + filepath.Base(p), fuzzSeed(t, p)})
	}
	for _, dir := range []string{"../../testdata", "../../policies"} {
		for _, rel := range listPy(t, dir) {
			if strings.Contains("/"+rel, "/node_modules/") {
				continue
			}
			src, err := os.ReadFile(filepath.Join(dir, rel))
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, corpusInput{filepath.Base(dir) + "/" + rel, src})
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
	sc := NewScanner()
	for _, in := range testCorpus(t) {
		f := sc.Scan("dir/x.py", in.src)
		payload, ok := encodeFacts(f)
		if !ok {
			t.Errorf("%s: facts not encodable: %+v", in.name, f)
			continue
		}
		size := int64(len(in.src))
		if got, ok := decodeFacts("dir/x.py", size, payload); !ok || !reflect.DeepEqual(got, f) {
			t.Errorf("%s: payload %q decodes to %+v (%v), want %+v", in.name, payload, got, ok, f)
		}
		if _, ok := decodeFacts("dir/y.py", size, payload); ok {
			t.Errorf("%s: the payload was accepted for another path", in.name)
		}
	}
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
func factsDigest(t testing.TB, sc *Scanner, src []byte) string {
	f := sc.Scan("corpus.py", src)
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := encodeFacts(f)
	sum := sha256.Sum256(append(append(b, '\n'), payload...))
	return hex.EncodeToString(sum[:8])
}

func inputDigest(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:8])
}

// TestVersionGuardsCachedFacts fails when the scanner's facts (or their
// cache payload) for an input of the test corpus differ from those recorded
// for Version: caches built by the old scanner would otherwise keep serving
// its facts. New inputs only need recording (-update).
func TestVersionGuardsCachedFacts(t *testing.T) {
	recVersion, rec := readVersionFacts(t)
	sc := NewScanner()
	now := map[string]string{}
	names := map[string]string{}
	var changed, unrecorded []string
	for _, in := range testCorpus(t) {
		k := inputDigest(in.src)
		if _, dup := now[k]; dup {
			continue
		}
		now[k], names[k] = factsDigest(t, sc, in.src), in.name
		switch was, ok := rec[k]; {
		case !ok:
			unrecorded = append(unrecorded, in.name)
		case was != now[k]:
			changed = append(changed, in.name)
		}
	}
	const rerun = "go test ./runners/python -run TestVersionGuardsCachedFacts -update"
	if len(changed) > 0 && recVersion == Version {
		t.Fatalf("the scanner's facts changed for %d corpus inputs (%s): bump Version in runners/python/cache.go, "+
			"so that caches built by the old scanner are rebuilt, then run %s", len(changed), strings.Join(changed[:min(5, len(changed))], "; "), rerun)
	}
	if *update {
		writeVersionFacts(t, now, names)
		return
	}
	if recVersion != Version {
		t.Fatalf("%s holds the facts of version %q, Version is %q: run %s", versionFacts, recVersion, Version, rerun)
	}
	if len(unrecorded) > 0 {
		t.Fatalf("%d corpus inputs are not recorded in %s (%s): run %s", len(unrecorded), versionFacts,
			strings.Join(unrecorded[:min(5, len(unrecorded))], "; "), rerun)
	}
}

// readVersionFacts reads versionFacts: the version line, then one
// "<input digest> <facts digest> <name>" line per input.
func readVersionFacts(t *testing.T) (string, map[string]string) {
	rec := map[string]string{}
	f, err := os.Open(versionFacts)
	if os.IsNotExist(err) {
		return "", rec
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	version := ""
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		if v, ok := strings.CutPrefix(line, "version "); ok {
			version = v
		} else if in, out, ok := strings.Cut(line, " "); ok && !strings.HasPrefix(line, "#") {
			rec[in], _, _ = strings.Cut(out, " ")
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return version, rec
}

func writeVersionFacts(t *testing.T, digests, names map[string]string) {
	var b strings.Builder
	b.WriteString("# The python scanner's facts over its test corpus, for the cache Version below:\n")
	b.WriteString("# \"<sha256 of the input> <sha256 of its facts and cache payload> <input>\", digests cut to 16 hex\n")
	b.WriteString("# digits. Written by go test ./runners/python -run TestVersionGuardsCachedFacts -update\n")
	b.WriteString("version " + Version + "\n")
	for _, k := range slices.Sorted(maps.Keys(digests)) {
		fmt.Fprintf(&b, "%s %s %s\n", k, digests[k], names[k])
	}
	if err := os.WriteFile(versionFacts, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
