package pyscan

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners/internal/pyscan/pyscantest"
)

// corpusRoot returns the directory tree to compare over: $TAUSIK_PY_CORPUS,
// else the reference interpreter's standard library (site-packages and the
// test suite included: it holds deliberately broken files and odd encodings).
func corpusRoot(t testing.TB, py string) string {
	t.Helper()
	if root := os.Getenv("TAUSIK_PY_CORPUS"); root != "" {
		return root
	}
	out, err := exec.Command(py, "-c", `import sysconfig; print(sysconfig.get_paths()["stdlib"])`).Output()
	if err != nil {
		t.Fatalf("%s: stdlib path: %v", py, err)
	}
	return strings.TrimSpace(string(out))
}

// TestCorpusMatchesCPython scans every .py file of a whole Python
// installation and compares the facts, file by file, with what CPython's ast
// reports through testdata/python/classfacts.py.
func TestCorpusMatchesCPython(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP in -short mode: the corpus comparison parses a whole Python installation with CPython")
	}
	py := refPython(t)
	root := corpusRoot(t, py)
	paths := pyscantest.ListPy(t, root)
	if len(paths) < 100 {
		t.Fatalf("corpus %s holds only %d .py files; point TAUSIK_PY_CORPUS at a Python installation", root, len(paths))
	}
	want := runRef(t, py, root, paths, runtime.GOMAXPROCS(0))
	got := scanFiles(t, root, paths)
	if len(got) != len(paths) {
		t.Fatalf("scanned %d files, want %d", len(got), len(paths))
	}
	const show = 15
	var diffs []string
	var rejected, grammarOnly, grammarAccepted, newer []string
	byPath := map[string]facts.PythonFile{}
	classes := 0
	for _, g := range got {
		w := want[g.Path]
		classes += len(w.Classes)
		if !w.Parsed {
			rejected = append(rejected, fmt.Sprintf("%s:%d: %s", g.Path, w.Error.Line, w.Error.Msg))
			if !tokenizerLevel(w.Error.Msg) {
				grammarOnly = append(grammarOnly, g.Path)
				if g.Parsed {
					grammarAccepted = append(grammarAccepted, g.Path)
				}
			}
		}
		if maybeNewer(w, g) {
			newer = append(newer, g.Path)
			byPath[g.Path] = g
			continue
		}
		if d := compareRef(w, g); d != "" {
			diffs = append(diffs, g.Path+": "+d)
		}
	}
	checkNewer(t, root, newer, byPath)
	t.Logf("python %s, %s: %d files, %d classes; CPython rejects %d files (%d at grammar level only, of which the scanner accepts %d: allowed)",
		pyVersion(t, py), root, len(paths), classes, len(rejected), len(grammarOnly), len(grammarAccepted))
	for _, r := range rejected {
		t.Logf("  rejected by CPython: %s", r)
	}
	for _, p := range grammarAccepted {
		t.Logf("  grammar-level error the scanner does not see: %s", p)
	}
	if len(diffs) > 0 {
		for i, d := range diffs {
			if i == show {
				t.Errorf("... and %d more", len(diffs)-show)
				break
			}
			t.Errorf("%s", d)
		}
		t.Fatalf("%d of %d files differ from CPython", len(diffs), len(paths))
	}
}
