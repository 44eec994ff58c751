// Package sourcetest holds what the tests of the source runners (python, go)
// share: scratch trees, a count of the files a runner opens, and the guard
// that holds a runner's scanner to its cache Version.
package sourcetest

// The version guard: a file records, for the Version it was written
// under, a digest of the scanner's facts (and cache payload) for every input
// of a test corpus. When an input's facts change and Version does not,
// caches built by the old scanner would keep serving the old facts, so Check
// fails and says to bump it; new inputs only need recording.

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// Input is one source of a test corpus, named for messages.
type Input struct {
	Name string
	Src  []byte
}

// Guard describes one runner's record.
type Guard struct {
	File    string // the record, e.g. "testdata/version_facts.txt"
	Version string // the runner's cache Version
	Bump    string // where Version is defined, for the message
	Rerun   string // the command that re-records (with -update)
	Scanner string // what is recorded, for the file's header ("the go scanner's facts")
}

// Digest returns the short digest the record keeps of b.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Check compares facts(src) for every input with the record; update writes
// the record afresh instead, unless facts changed under an unbumped Version.
func (g Guard) Check(t testing.TB, inputs []Input, facts func(src []byte) string, update bool) {
	t.Helper()
	recVersion, rec := g.read(t)
	now := map[string]string{}
	names := map[string]string{}
	var changed, unrecorded []string
	for _, in := range inputs {
		k := Digest(in.Src)
		if _, dup := now[k]; dup {
			continue
		}
		now[k], names[k] = facts(in.Src), in.Name
		switch was, ok := rec[k]; {
		case !ok:
			unrecorded = append(unrecorded, in.Name)
		case was != now[k]:
			changed = append(changed, in.Name)
		}
	}
	if len(changed) > 0 && recVersion == g.Version {
		t.Fatalf("%s changed for %d corpus inputs (%s): bump Version in %s, so that caches built by the old scanner are rebuilt, then run %s",
			g.Scanner, len(changed), strings.Join(changed[:min(5, len(changed))], "; "), g.Bump, g.Rerun)
	}
	if update {
		g.write(t, now, names)
		return
	}
	if recVersion != g.Version {
		t.Fatalf("%s holds the facts of version %q, Version is %q: run %s", g.File, recVersion, g.Version, g.Rerun)
	}
	if len(unrecorded) > 0 {
		t.Fatalf("%d corpus inputs are not recorded in %s (%s): run %s", len(unrecorded), g.File,
			strings.Join(unrecorded[:min(5, len(unrecorded))], "; "), g.Rerun)
	}
}

// read reads the record: the version line, then one "<input digest> <facts
// digest> <name>" line per input.
func (g Guard) read(t testing.TB) (string, map[string]string) {
	rec := map[string]string{}
	f, err := os.Open(g.File)
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

func (g Guard) write(t testing.TB, digests, names map[string]string) {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s%s over its test corpus, for the cache Version below:\n", strings.ToUpper(g.Scanner[:1]), g.Scanner[1:])
	b.WriteString("# \"<sha256 of the input> <sha256 of its facts and cache payload> <input>\", digests cut to 16 hex\n")
	fmt.Fprintf(&b, "# digits. Written by %s\n", g.Rerun)
	b.WriteString("version " + g.Version + "\n")
	for _, k := range slices.Sorted(maps.Keys(digests)) {
		fmt.Fprintf(&b, "%s %s %s\n", k, digests[k], names[k])
	}
	if err := os.WriteFile(g.File, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
