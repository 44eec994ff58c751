package policies

import (
	"bufio"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite gotests.txt from the sources")

var testFuncRE = regexp.MustCompile(`^func (Test[A-Za-z0-9_]*)\(`)

// TestGoTestsIndex keeps gotests.txt, the list of Go test names a built-in
// gate's excused.yaml may cite, equal to the test functions in the sources.
// A stale list would let an excuse name a deleted test. `make gotests`
// regenerates it.
func TestGoTestsIndex(t *testing.T) {
	var names []string
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != ".." && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if m := testFuncRE.FindStringSubmatch(sc.Text()); m != nil {
				names = append(names, m[1])
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	names = slices.Compact(names)
	want := strings.Join(names, "\n") + "\n"
	if *update {
		if err := os.WriteFile("gotests.txt", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := strings.Join(GoTests(), "\n") + "\n"; got != want {
		t.Errorf("gotests.txt is stale; run `make gotests`")
	}
	if len(names) == 0 {
		t.Error("found no Go tests at all")
	}
}
