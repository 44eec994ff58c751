package surface

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/cache"
	"github.com/tausik/tausik/runners/internal/goscan"
	"github.com/tausik/tausik/runners/internal/sourcetest"
	"github.com/tausik/tausik/store"
)

// gather runs the runner over root with the given params (roots "." and
// no cap unless params say otherwise) and returns its facts.
func gather(t *testing.T, r *Runner, root string, params map[string]any) facts.Surface {
	t.Helper()
	p := map[string]any{"roots": []any{"."}}
	for k, v := range params {
		p[k] = v
	}
	s := runners.NewScope(root, facts.Request{Trigger: "commit"})
	s.Options = map[string]any{Namespace: r.Options(p)}
	ns := r.Gather(context.Background(), s)
	if ns.Status != facts.StatusOK {
		t.Fatalf("status %s: %s", ns.Status, ns.Reason)
	}
	return ns.Data.(facts.Surface)
}

// summary is "path:Name count [from] ambiguous-bases" for each class.
func summary(s facts.Surface) []string {
	var out []string
	for _, c := range s.Classes {
		var amb []string
		for _, a := range c.Ambiguous {
			x := s.AmbiguousBases[a.Ref]
			amb = append(amb, fmt.Sprintf("%s(%s)<=%d", x.Base, strings.Join(x.Candidates, " "), a.Worst))
		}
		out = append(out, fmt.Sprintf("%s:%s %d %v %v", c.Path, c.Name, c.Count, c.From, amb))
	}
	return out
}

const threeNames = "    def a(self): pass\n    def b(self): pass\n    def c(self): pass\n"

// TestGatherResolvesThroughImports: on a real git tree, Python bases follow
// import aliases, relative imports and a package's re-export, a base the
// imports send outside the tree counts nothing, a bare name nothing
// imports falls back to the unique class of that name, and a Go embed
// follows the go.mod import path exactly.
func TestGatherResolvesThroughImports(t *testing.T) {
	root := sourcetest.GitRepo(t, map[string]string{
		"pkg/__init__.py": "from .models import Base\n",
		"pkg/models.py":   "class Base:\n" + threeNames,
		"pkg/views.py":    "from .models import Base as M\n\nclass View(M):\n    def v(self): pass\n",
		"other/base.py":   "class Base:\n    def z(self): pass\n\nclass Solo:\n" + threeNames,
		"app.py": "import pkg.models as m\nfrom pkg import Base\nfrom json import Solo\n\n" +
			"class Aliased(m.Base): pass\nclass Reexported(Base): pass\nclass Outside(Solo): pass\n",
		"bare.py":      "class Bare(Solo): pass\nclass Amb(Base): pass\n",
		"go.mod":       "module example.test\n\ngo 1.22\n",
		"x/util/h.go":  "package util\n\ntype Helper struct{ A, B int }\n",
		"util/h.go":    "package util\n\ntype Helper struct{ A int }\n",
		"app/child.go": "package app\n\nimport \"example.test/x/util\"\n\ntype Child struct {\n\tutil.Helper\n}\n",
	})
	got := summary(gather(t, New(), root, nil))
	want := []string{
		"app.py:Aliased 3 [Base] []",
		"app.py:Reexported 3 [Base] []",
		"app.py:Outside 0 [] []",
		"bare.py:Bare 3 [Solo] []",
		"bare.py:Amb 0 [] [Base(other/base.py:1 pkg/models.py:1)<=3]",
		"other/base.py:Base 1 [] []",
		"other/base.py:Solo 3 [] []",
		"pkg/models.py:Base 3 [] []",
		"pkg/views.py:View 4 [Base] []",
		"app/child.go:Child 3 [Helper] []",
		"util/h.go:Helper 1 [] []",
		"x/util/h.go:Helper 2 [] []",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestGatherFollowsParams: the roots and exclusions decide what a base may
// name (excluding a twin makes a bare name unique), a cap lists only the
// classes at or over it or that a candidate would take to it, and a
// baseline key lists the classes of its name whatever their count.
func TestGatherFollowsParams(t *testing.T) {
	root := sourcetest.GitRepo(t, map[string]string{
		"a/base.py":  "class Base:\n" + threeNames,
		"b/base.py":  "class Base:\n    def z(self): pass\n",
		"a/child.py": "class Child(Base):\n    def d(self): pass\n",
		"a/small.py": "class Small: pass\n",
		"c/x.py":     "class Kept: pass\n",
	})
	r := New()
	all := gather(t, r, root, map[string]any{"exclude": map[string]any{"b/**": "the twin"}})
	if got := summary(all); !slices.Contains(got, "a/child.py:Child 4 [Base] []") {
		t.Errorf("with b/ excluded Child should reach a/'s Base: %q", got)
	}
	capped := gather(t, r, root, map[string]any{"max_public_members": int64(4), "baseline": map[string]any{"c/x.py:Kept": int64(1)}})
	want := []string{"a/child.py:Child 1 [] [Base(a/base.py:1 b/base.py:1)<=4]", "c/x.py:Kept 0 [] []"}
	if got := summary(capped); !slices.Equal(got, want) {
		t.Errorf("capped: got %q, want %q", got, want)
	}
	if capped.Total != 5 || capped.Scanned != 5 {
		t.Errorf("total %d scanned %d, want 5 and 5", capped.Total, capped.Scanned)
	}
	rooted := gather(t, r, root, map[string]any{"roots": []any{"./a/", "nowhere"}})
	if rooted.Scanned != 3 || rooted.Roots[0].Files != 3 || rooted.Roots[1].Files != 0 || rooted.Roots[0].Whole {
		t.Errorf("roots: scanned %d, roots %+v", rooted.Scanned, rooted.Roots)
	}
}

// TestGatherCached: a second evaluation with a store answers from the cache
// and gives the same facts; an edited file is read again.
func TestGatherCached(t *testing.T) {
	st, err := store.OpenMemory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	root := sourcetest.GitRepo(t, map[string]string{"m.py": "class Base:\n" + threeNames, "n.py": "from m import Base\nclass C(Base): pass\n"})
	r := New(runners.WithCache(st))
	first := summary(gather(t, r, root, nil))
	if again := summary(gather(t, r, root, nil)); !slices.Equal(first, again) {
		t.Fatalf("cached %q, first %q", again, first)
	}
	sourcetest.WriteFile(t, root, "n.py", "from m import Base\nclass C(Base):\n    def more(self): pass\n")
	if got := summary(gather(t, r, root, nil)); !slices.Contains(got, "n.py:C 4 [Base] []") {
		t.Errorf("after the edit: %q", got)
	}
}

// cachedTree is a committed tree of one Python and one Go file and a
// runner caching in a fresh store, with a clock an hour ahead so that no
// entry it records is racy.
func cachedTree(t *testing.T) (*store.Store, string, *Runner) {
	t.Helper()
	st, err := store.OpenMemory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	root := sourcetest.GitRepo(t, map[string]string{"m.py": "class Base:\n" + threeNames, "g/g.go": "package g\n\ntype S struct{ A int }\n"})
	later := func() time.Time { return time.Now().Add(time.Hour) }
	return st, root, New(runners.WithCache(st), runners.WithClock(later))
}

// stampOf is the cache stamp of root's file rel.
func stampOf(t *testing.T, root, rel string) cache.Stamp {
	t.Helper()
	info, err := os.Lstat(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	stamp, ok := cache.StampOf(info)
	if !ok {
		t.Skip("this platform has no lstat stamps, so nothing is cached")
	}
	return stamp
}

// TestGatherWritesBothCaches: the Python and Go fact caches, written while
// the bases are resolved, are in the store when Gather returns, each file
// under its stamp.
func TestGatherWritesBothCaches(t *testing.T) {
	st, root, r := cachedTree(t)
	gather(t, r, root, nil)
	for _, c := range []struct{ ns, version, path string }{{"surface_python", pyVersion, "m.py"}, {goscan.Namespace, goscan.Version, "g/g.go"}} {
		if _, hit := cache.LoadIndex(context.Background(), st, c.ns, c.version, root).Lookup(c.path, stampOf(t, root, c.path)); !hit {
			t.Errorf("%s: no %s cache entry after Gather", c.path, c.ns)
		}
	}
}

// TestComputeAdversarial: a chain of 3,000 classes, a cycle of 1,000 and
// 2,000 classes of one name end, each class counting its closure once;
// every ring member writes the ambiguous Same, so each sees 1,000.
func TestComputeAdversarial(t *testing.T) {
	var files []facts.PythonFile
	add := func(name string, bases []string, public ...string) {
		files = append(files, facts.PythonFile{Path: fmt.Sprintf("f%06d.py", len(files)), Parsed: true,
			Classes: []facts.PythonClass{{Name: name, Line: 1, Bases: bases, Public: public}}})
	}
	for i := range 3_000 {
		add(fmt.Sprintf("Chain%d", i), []string{fmt.Sprintf("Chain%d", i+1)}, fmt.Sprintf("c%d", i))
	}
	for i := range 1_000 {
		add(fmt.Sprintf("Ring%d", i), []string{fmt.Sprintf("Ring%d", (i+1)%1_000), "Same"}, fmt.Sprintf("r%d", i%100))
	}
	for i := range 2_000 {
		add("Same", []string{"Same"}, fmt.Sprintf("s%d", i))
	}
	s := Compute(Params{Roots: []string{"."}}, files, nil, nil)
	if s.Classes[0].Count != 3_000 || s.Classes[2_999].Count != 1 || len(s.Classes[0].From) != 2_999 {
		t.Errorf("chain: head %d, tail %d", s.Classes[0].Count, s.Classes[2_999].Count)
	}
	ring := s.Classes[3_000]
	if ring.Count != 100 || len(ring.Ambiguous) != 1_000 || len(ring.From) != 999 || ring.Ambiguous[0].Worst != 101 {
		t.Errorf("ring: count %d, %d ambiguous, worst %d", ring.Count, len(ring.Ambiguous), ring.Ambiguous[0].Worst)
	}
}

// TestCompileExclude: the exclusion language (docs/paths.md).
func TestCompileExclude(t *testing.T) {
	for _, c := range []struct {
		glob, path string
		match      bool
	}{
		{"testdata/**", "testdata/a/b.py", true},
		{"**/fixtures/*/tree/**", "p/fixtures/x/tree/a.py", true},
		{"**/fixtures/*/tree/**", "fixtures/x/tree/a.py", true}, // "**/" also matches no directory
		{"*.py", "a/b.py", true},                                // no "/": a name at any depth
		{"tests/", "tests/a.py", true},
		{"tests/", "a/tests/b.py", false},
		{"a/?.py", "a/b.py", true},
		{"a/?.py", "a//.py", false},
		{"a.py", "axpy", false},
		{"é/*.py", "é/x.py", true},
	} {
		re, ok := compileExclude(c.glob)
		if !ok || re.Match(c.path) != c.match {
			t.Errorf("%q on %q: ok %v, want match %v", c.glob, c.path, ok, c.match)
		}
	}
	for _, bad := range []string{"", " ", "/abs", "a/[bc]", "{a,b}", `a\b`} {
		if _, ok := compileExclude(bad); ok {
			t.Errorf("%q compiled; the policy reports it and the scan must not apply it", bad)
		}
	}
}

// TestGatherImportsFindModulesAsPythonDoes: a module found by its path
// below a directory (a namespace package, a src/ root) must be importable
// by that name: `import logging` in a package never names the package's own
// logging.py (Python 3 has no implicit relative imports), while a src/
// layout and a namespace package resolve.
func TestGatherImportsFindModulesAsPythonDoes(t *testing.T) {
	root := sourcetest.GitRepo(t, map[string]string{
		"app/__init__.py":     "",
		"app/logging.py":      "class Handler:\n" + threeNames,
		"app/h.py":            "import logging\n\nclass H(logging.Handler): pass\n",
		"src/lib/__init__.py": "",
		"src/lib/core.py":     "class K:\n" + threeNames,
		"use.py":              "from lib.core import K as Core\n\nclass UsesSrc(Core): pass\n",
		"ns/sub/mod.py":       "class N:\n" + threeNames,
		"usens.py":            "import ns.sub.mod as m\n\nclass UsesNS(m.N): pass\n",
	})
	got := summary(gather(t, New(), root, nil))
	want := []string{
		"app/h.py:H 0 [] []",
		"app/logging.py:Handler 3 [] []",
		"ns/sub/mod.py:N 3 [] []",
		"src/lib/core.py:K 3 [] []",
		"use.py:UsesSrc 3 [K] []",
		"usens.py:UsesNS 3 [N] []",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// closures may run twice on one resolver: unite's marks of the first call
// must not hide a component's successors in the second.
func TestClosuresTwice(t *testing.T) {
	py := []facts.PythonFile{{Path: "m.py", Parsed: true, Classes: []facts.PythonClass{
		{Name: "A", Line: 1, Public: []string{"a"}, Bases: []string{}},
		{Name: "B", Line: 2, Public: []string{"b"}, Bases: []string{"A"}},
		{Name: "C", Line: 3, Public: []string{"c"}, Bases: []string{"B"}}}}}
	r := newResolver(py, nil, nil)
	r.resolve(nil)
	first, _ := r.closures()
	second, _ := r.closures()
	for i := range first {
		if len(first[i].surface) != len(second[i].surface) {
			t.Errorf("component %d: %d names, then %d", i, len(first[i].surface), len(second[i].surface))
		}
	}
}

// TestGatherDropsALanguageThatLeft: once the listing holds no .go file,
// the go runner returns without waiting for its index, and the save still
// drops the entries of the files that left (the index is empty after it).
func TestGatherDropsALanguageThatLeft(t *testing.T) {
	st, root, r := cachedTree(t)
	stamp := stampOf(t, root, "g/g.go")
	gather(t, r, root, nil)
	if _, hit := cache.LoadIndex(context.Background(), st, goscan.Namespace, goscan.Version, root).Lookup("g/g.go", stamp); !hit {
		t.Fatal("no go cache entry after the first Gather")
	}
	cmd := exec.Command("git", "rm", "-q", "g/g.go")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git rm: %v\n%s", err, out)
	}
	if got := summary(gather(t, r, root, nil)); !slices.Equal(got, []string{"m.py:Base 3 [] []"}) {
		t.Errorf("after the .go file left: %q", got)
	}
	if _, hit := cache.LoadIndex(context.Background(), st, goscan.Namespace, goscan.Version, root).Lookup("g/g.go", stamp); hit {
		t.Error("the go index still holds g/g.go after a Gather whose listing has no .go file")
	}
}

// TestGatherCycleNamesATwin: in a cycle of bases, a class's From names the
// closure's other classes; its own name is left out unless another class
// of the cycle has it too.
func TestGatherCycleNamesATwin(t *testing.T) {
	root := sourcetest.GitRepo(t, map[string]string{
		"p.py": "from q import C as QC\n\nclass C(QC):\n    def p(self): pass\n",
		"q.py": "from p import C as PC\n\nclass C(PC):\n    def q(self): pass\n",
		"x.py": "from y import D\n\nclass C(D):\n    def x(self): pass\n",
		"y.py": "from x import C\n\nclass D(C):\n    def y(self): pass\n",
	})
	got := summary(gather(t, New(), root, nil))
	want := []string{"p.py:C 2 [C] []", "q.py:C 2 [C] []", "x.py:C 2 [D] []", "y.py:D 2 [C] []"}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
