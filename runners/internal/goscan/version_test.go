package goscan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/runners/internal/sourcetest"
)

var update = flag.Bool("update", false, "record the scanner's facts over the test corpus in "+versionFacts)

// versionFacts records, for Version, a digest of Scan's facts for every
// input of the test corpus.
const versionFacts = "testdata/version_facts.txt"

// testCorpus is what the version test scans: the scan tests' sources, the
// fuzz seeds, and every .go file the policy fixtures' git steps write.
func testCorpus(t testing.TB) []sourcetest.Input {
	t.Helper()
	in := []sourcetest.Input{{Name: "scanSrc", Src: []byte(scanSrc)}, {Name: "importsSrc", Src: []byte(importsSrc)}}
	for i, c := range scanErrorCases {
		in = append(in, sourcetest.Input{Name: fmt.Sprintf("error case %d", i), Src: []byte(c.src)})
	}
	for i, s := range fuzzSeeds {
		in = append(in, sourcetest.Input{Name: fmt.Sprintf("fuzz seed %d", i), Src: []byte(s)})
	}
	cases, err := filepath.Glob("../../../policies/*/fixtures/*/case.yaml")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no fixture cases: %v", err)
	}
	for _, p := range cases {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			Git []struct {
				Write map[string]string `yaml:"write"`
			} `yaml:"git"`
		}
		if err := yaml.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		name := strings.TrimSuffix(strings.TrimPrefix(p, "../../../policies/"), "/case.yaml")
		for i, step := range c.Git {
			for _, file := range slices.Sorted(maps.Keys(step.Write)) {
				if strings.HasSuffix(file, ".go") {
					in = append(in, sourcetest.Input{Name: name + " step " + strconv.Itoa(i) + " " + file, Src: []byte(step.Write[file])})
				}
			}
		}
	}
	return in
}

// factsDigest is a short digest of what Scan says of src and of its cache
// payload.
func factsDigest(t testing.TB, src []byte) string {
	f := Scan("corpus.go", src)
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
	g := sourcetest.Guard{File: versionFacts, Version: Version, Bump: "runners/internal/goscan/runner.go",
		Rerun: "go test ./runners/internal/goscan -run TestVersionGuardsCachedFacts -update", Scanner: "the go scanner's facts"}
	g.Check(t, testCorpus(t), func(src []byte) string { return factsDigest(t, src) }, *update)
}
