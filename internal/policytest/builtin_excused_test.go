package policytest

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tausik/tausik/policies"
	"gopkg.in/yaml.v3"
)

var sourceTestRE = regexp.MustCompile(`^func (Test[A-Za-z0-9_]*)\(`)

// moduleRoot is tausik's module root, seen from this package's directory.
const moduleRoot = "../.."

// sourceTests returns the names of the Test functions in tausik's own Go
// sources.
func sourceTests(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	err := filepath.WalkDir(moduleRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != moduleRoot && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules") {
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
			if m := sourceTestRE.FindStringSubmatch(sc.Text()); m != nil {
				names[m[1]] = true
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// TestBuiltinExcusesNameTests checks, at build time, that every built-in
// gate's excused.yaml names a red and a green test that exist in tausik's
// sources. The list of test names is not shipped in the binary: a built-in
// excuse is proven here, where the sources are.
func TestBuiltinExcusesNameTests(t *testing.T) {
	known := sourceTests(t)
	if !known["TestBuiltinExcusesNameTests"] {
		t.Fatal("the source walk did not find this test; it reads nothing")
	}
	files, err := fs.Glob(policies.FS, "*/excused.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		raw, err := fs.ReadFile(policies.FS, f)
		if err != nil {
			t.Fatal(err)
		}
		var ex struct {
			RedTest   string `yaml:"red_test"`
			GreenTest string `yaml:"green_test"`
		}
		if err := yaml.Unmarshal(raw, &ex); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, n := range []string{ex.RedTest, ex.GreenTest} {
			if !known[n] {
				t.Errorf("%s: %q names no Go test function in tausik's sources", f, n)
			}
		}
	}
}

// TestNoTestIndexShipped keeps lists of tausik's own test names out of the
// embedded bundles: the binary judges other repositories, whose tests these
// are not. A list of them would hold this test's name.
func TestNoTestIndexShipped(t *testing.T) {
	err := fs.WalkDir(policies.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(policies.FS, p)
		if err == nil && strings.Contains(string(b), "TestNoTestIndexShipped") {
			t.Errorf("%s lists tausik's test names and is embedded in the binary", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
