package golang

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
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

var update = flag.Bool("update", false, "record the scanner's facts over the test corpus in "+versionFacts)

// versionFacts records, for Version, a digest of Scan's facts for every
// input of the test corpus.
const versionFacts = "testdata/version_facts.txt"

// corpusInput is one source of the test corpus, named for messages.
type corpusInput struct {
	name string
	src  []byte
}

// testCorpus is what the version test scans: the scan tests' sources, the
// fuzz seeds, and every .go file the policy fixtures' git steps write.
func testCorpus(t testing.TB) []corpusInput {
	t.Helper()
	in := []corpusInput{{"scanSrc", []byte(scanSrc)}, {"importsSrc", []byte(importsSrc)}}
	for i, c := range scanErrorCases {
		in = append(in, corpusInput{fmt.Sprintf("error case %d", i), []byte(c.src)})
	}
	for i, s := range fuzzSeeds {
		in = append(in, corpusInput{fmt.Sprintf("fuzz seed %d", i), []byte(s)})
	}
	cases, err := filepath.Glob("../../policies/*/fixtures/*/case.yaml")
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
		name := strings.TrimSuffix(strings.TrimPrefix(p, "../../policies/"), "/case.yaml")
		for i, step := range c.Git {
			for _, file := range slices.Sorted(maps.Keys(step.Write)) {
				if strings.HasSuffix(file, ".go") {
					in = append(in, corpusInput{name + " step " + strconv.Itoa(i) + " " + file, []byte(step.Write[file])})
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

func inputDigest(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:8])
}

// TestVersionGuardsCachedFacts fails when Scan's facts (or their cache
// payload) for an input of the test corpus differ from those recorded for
// Version: caches built by the old scanner would otherwise keep serving its
// facts. New inputs only need recording (-update).
func TestVersionGuardsCachedFacts(t *testing.T) {
	recVersion, rec := readVersionFacts(t)
	now := map[string]string{}
	names := map[string]string{}
	var changed, unrecorded []string
	for _, in := range testCorpus(t) {
		k := inputDigest(in.src)
		if _, dup := now[k]; dup {
			continue
		}
		now[k], names[k] = factsDigest(t, in.src), in.name
		switch was, ok := rec[k]; {
		case !ok:
			unrecorded = append(unrecorded, in.name)
		case was != now[k]:
			changed = append(changed, in.name)
		}
	}
	const rerun = "go test ./runners/golang -run TestVersionGuardsCachedFacts -update"
	if len(changed) > 0 && recVersion == Version {
		t.Fatalf("Scan's facts changed for %d corpus inputs (%s): bump Version in runners/golang/runner.go, "+
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
	b.WriteString("# The go scanner's facts over its test corpus, for the cache Version below:\n")
	b.WriteString("# \"<sha256 of the input> <sha256 of its facts and cache payload> <input>\", digests cut to 16 hex\n")
	b.WriteString("# digits. Written by go test ./runners/golang -run TestVersionGuardsCachedFacts -update\n")
	b.WriteString("version " + Version + "\n")
	for _, k := range slices.Sorted(maps.Keys(digests)) {
		fmt.Fprintf(&b, "%s %s %s\n", k, digests[k], names[k])
	}
	if err := os.WriteFile(versionFacts, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
