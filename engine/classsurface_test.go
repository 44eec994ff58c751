package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners/surface"
)

// syntheticPython returns python facts with n classes, perFile to a file, in
// the shapes class_surface must handle: names that repeat across and within
// files (ambiguous bases), bases that name later classes (cycles), several
// bases per class (diamonds), bases that are not in the tree (object,
// stdlib), overlapping public names, and a few wide classes.
func syntheticPython(seed uint64, n, perFile int) facts.Python {
	rng := rand.New(rand.NewPCG(seed, 7))
	any := func(int) string { return fmt.Sprintf("C%d", rng.IntN(n*9/10+1)) }
	return synthetic(rng, n, perFile, any, any)
}

// projectPython returns python facts shaped like a project's: about 2% of
// class names repeat; hierarchies are shallow, as in real code: every 100th
// class is a root (bases outside the tree, if any), every 10th a mid-level
// class on a recent root, and the rest leaves on recent mid-level classes
// and roots (mixins); a few classes are wide.
func projectPython(seed uint64, n, perFile int) facts.Python {
	rng := rand.New(rand.NewPCG(seed, 11))
	own := func(i int) string {
		if rng.IntN(50) == 0 {
			return fmt.Sprintf("C%d", rng.IntN(i+1))
		}
		return fmt.Sprintf("C%d", i)
	}
	base := func(i int) string {
		step := 10
		switch {
		case i%100 == 0:
			return "Exception"
		case i%10 == 0 || rng.IntN(3) == 0:
			step = 100
		}
		back := (i / step) - rng.IntN(3)
		return fmt.Sprintf("C%d", max(0, back)*step)
	}
	return synthetic(rng, n, perFile, own, base)
}

// synthetic builds n classes, perFile to a file; class i is named own(i)
// and its bases, when in the tree, base(i).
func synthetic(rng *rand.Rand, n, perFile int, own, base func(i int) string) facts.Python {
	var py facts.Python
	for i := 0; i < n; i += perFile {
		f := facts.PythonFile{Path: fmt.Sprintf("pkg/m%03d/f%05d.py", i%97, i), Parsed: true}
		for j := 0; j < perFile && i+j < n; j++ {
			c := facts.PythonClass{Name: own(i + j), Line: 1 + 10*j, Bases: []string{}}
			for range rng.IntN(3) + rng.IntN(2) {
				switch rng.IntN(8) {
				case 0:
					c.Bases = append(c.Bases, "object")
				case 1:
					c.Bases = append(c.Bases, c.Name) // itself, or another class of its name
				default:
					c.Bases = append(c.Bases, base(i+j))
				}
			}
			width := 1 + rng.IntN(12)
			if rng.IntN(50) == 0 {
				width = 55 + rng.IntN(20)
			}
			for range width {
				c.Public = append(c.Public, fmt.Sprintf("m%d", rng.IntN(300)))
			}
			slices.Sort(c.Public)
			c.Public = slices.Compact(c.Public)
			f.Classes = append(f.Classes, c)
		}
		py.Files = append(py.Files, f)
	}
	return py
}

// syntheticGo returns go facts with n structs, perFile to a file, in
// packages of a few directories (a tenth of the files in a directory's
// external _test package, an eighth in a top-level twin directory that
// import paths ending in it also match): struct names drawn from the same
// pool as syntheticPython's classes (they must never resolve to those);
// embedded bases unqualified (the struct itself, or any name, which only
// the package's own structs may answer), qualified through the file's
// imports of the generated packages, of the standard library, or through
// no import at all; and exported methods declared in any file of the
// package, some on types that are not structs.
func syntheticGo(seed uint64, n, perFile int) facts.Go {
	rng := rand.New(rand.NewPCG(seed, 13))
	name := func() string { return fmt.Sprintf("C%d", rng.IntN(n*9/10+1)) }
	var gof facts.Go
	declared := map[string][]string{}              // directory and package -> struct names so far
	declaredName := func(units ...string) string { // mostly a struct of one of units, if any
		var pool []string
		for _, u := range units {
			pool = append(pool, declared[u]...)
		}
		if len(pool) == 0 || rng.IntN(4) == 0 {
			return name()
		}
		return pool[rng.IntN(len(pool))]
	}
	for i := 0; i < n; i += perFile {
		pkg := fmt.Sprintf("p%02d", i%13)
		dir := "gopkg/" + pkg
		if rng.IntN(8) == 0 {
			dir = pkg
		}
		f := facts.GoFile{Path: fmt.Sprintf("%s/f%05d.go", dir, i), Package: pkg, Parsed: true, Imports: map[string]string{"io": "io"}}
		if rng.IntN(10) == 0 {
			f.Package += "_test"
		}
		unit := dir + " " + f.Package
		for j := 0; j < perFile && i+j < n; j++ {
			s := facts.GoStruct{Name: name(), Line: 1 + 10*j, Bases: []string{}}
			for range rng.IntN(4) {
				switch k := rng.IntN(12); {
				case k < 2:
					s.Bases = append(s.Bases, s.Name)
				case k < 5:
					s.Bases = append(s.Bases, declaredName(unit))
				case k < 10: // an import of a generated package, under its name or an alias
					to := rng.IntN(13)
					q, p := fmt.Sprintf("p%02d", to), fmt.Sprintf("example.test/gopkg/p%02d", to)
					if rng.IntN(3) == 0 {
						q, p = fmt.Sprintf("a%d", to), fmt.Sprintf("example.test/p%02d", to)
					}
					f.Imports[q] = p
					tp := fmt.Sprintf("p%02d", to)
					s.Bases = append(s.Bases, q+"."+declaredName("gopkg/"+tp+" "+tp, tp+" "+tp, "gopkg/"+tp+" "+tp+"_test"))
				case k < 11:
					s.Bases = append(s.Bases, "io."+name())
				default:
					s.Bases = append(s.Bases, "nowhere."+name())
				}
			}
			width := rng.IntN(10)
			if rng.IntN(40) == 0 {
				width = 50 + rng.IntN(20)
			}
			for range width {
				s.Fields = append(s.Fields, fmt.Sprintf("m%d", rng.IntN(300)))
			}
			slices.Sort(s.Fields)
			s.Fields = slices.Compact(s.Fields)
			f.Structs = append(f.Structs, s)
			declared[unit] = append(declared[unit], s.Name)
		}
		for range rng.IntN(3 * perFile) {
			recv := "Level" // a named non-struct type: its methods join nothing
			if names := declared[unit]; rng.IntN(5) != 0 {
				recv = names[rng.IntN(len(names))]
			}
			f.Methods = append(f.Methods, facts.GoMethod{Recv: recv, Name: fmt.Sprintf("m%d", rng.IntN(300)), Line: 1})
		}
		gof.Files = append(gof.Files, f)
	}
	return gof
}

// refSurface is a plain Go reading of docs/gates.md's class_surface counting, to
// check the policy against: candidates, resolved edges, transitive union.
// Python classes and Go structs are classes alike, but each language's
// bases name only its own classes.
type refSurface struct {
	cls     []refClass
	byName  map[refKey][]int
	surface []map[string]bool
	amb     [][]refAmb     // per class: ambiguous bases written anywhere in its closure
	reach   []map[int]bool // per class: the classes of its closure, itself included
}

// refKey names a class within its language.
type refKey struct{ lang, name string }

// refClass is a class or struct: unit is where its bases are looked up
// first (a Python class's file, a Go struct's directory and package). A Go
// struct also has its file's imports, its directory, and whether another
// package can import it.
type refClass struct {
	refKey
	unit, path string
	line       int
	bases      []string
	public     []string
	imports    map[string]string
	dir        string
	importable bool
}

type refAmb struct {
	writer int
	base   string
	cands  []int
}

// refClasses lists the classes of py and the structs of gof, each struct's
// public names being its exported fields and its package's methods on it.
func refClasses(py facts.Python, gof facts.Go) []refClass {
	var out []refClass
	for _, f := range py.Files {
		for _, c := range f.Classes {
			out = append(out, refClass{refKey: refKey{"py", c.Name}, unit: f.Path, path: f.Path, line: c.Line, bases: c.Bases, public: c.Public})
		}
	}
	methods := map[string][]string{}
	for _, f := range gof.Files {
		for _, m := range f.Methods {
			k := fmt.Sprintf("%s %s %s", path.Dir(f.Path), f.Package, m.Recv)
			methods[k] = append(methods[k], m.Name)
		}
	}
	for _, f := range gof.Files {
		unit := fmt.Sprintf("%s %s", path.Dir(f.Path), f.Package)
		for _, s := range f.Structs {
			public := append(slices.Clone(s.Fields), methods[fmt.Sprintf("%s %s %s", path.Dir(f.Path), f.Package, s.Name)]...)
			importable := !strings.HasSuffix(f.Path, "_test.go") && !strings.HasSuffix(f.Package, "_test") && f.Package != "main"
			out = append(out, refClass{refKey{"go", s.Name}, unit, f.Path, s.Line, s.Bases, public, f.Imports, path.Dir(f.Path), importable})
		}
	}
	return out
}

func newRefSurface(py facts.Python, gof facts.Go) *refSurface {
	r := &refSurface{byName: map[refKey][]int{}, cls: refClasses(py, gof)}
	for id, c := range r.cls {
		r.byName[c.refKey] = append(r.byName[c.refKey], id)
	}
	edges := make([][]int, len(r.cls))
	own := make([][]refAmb, len(r.cls))
	for id, c := range r.cls {
		for _, b := range c.bases {
			all := r.candidates(id, b)
			switch {
			case len(all) == 1:
				edges[id] = append(edges[id], all[0])
			case len(all) > 1:
				own[id] = append(own[id], refAmb{id, b, all})
			}
		}
	}
	for id := range r.cls {
		seen := map[int]bool{id: true}
		queue := []int{id}
		names := map[string]bool{}
		var amb []refAmb
		for len(queue) > 0 {
			k := queue[0]
			queue = queue[1:]
			for _, n := range r.cls[k].public {
				names[n] = true
			}
			amb = append(amb, own[k]...)
			for _, e := range edges[k] {
				if !seen[e] {
					seen[e] = true
					queue = append(queue, e)
				}
			}
		}
		r.surface = append(r.surface, names)
		r.amb = append(r.amb, amb)
		r.reach = append(r.reach, seen)
	}
	return r
}

// candidates are the classes base b of class id may name. Python: the
// classes named b in id's file, else all of them. Go, as the compiler reads
// it: an unqualified b is a struct of id's package; q.T is a struct T of the
// package the file imports as q: importable, in a directory the import path
// ends with. Never the class itself.
func (r *refSurface) candidates(id int, b string) []int {
	c := r.cls[id]
	var local, all []int
	q, t, qualified := strings.Cut(b, ".")
	if !qualified {
		t = b
	}
	for _, k := range r.byName[refKey{c.lang, t}] {
		o := r.cls[k]
		switch {
		case k == id:
		case c.lang == "py":
			all = append(all, k)
			if o.unit == c.unit {
				local = append(local, k)
			}
		case !qualified && o.unit == c.unit:
			all = append(all, k)
		case qualified && o.importable && c.imports[q] != "" && o.dir != "." &&
			(c.imports[q] == o.dir || strings.HasSuffix(c.imports[q], "/"+o.dir)):
			all = append(all, k)
		}
	}
	if len(local) > 0 {
		return local
	}
	return all
}

// classSurfaceInput is the surface runner's resolution of py and gof under
// class_surface's params overridden by params, converted once.
func classSurfaceInput(t testing.TB, e *Engine, py facts.Python, gof facts.Go, params map[string]any) (*policy.Input, *facts.Document) {
	t.Helper()
	doc := facts.NewDocument()
	doc.Set(surface.Namespace, facts.OK(surface.Compute(surface.ParamsOf(classSurfaceParams(e, params)), py.Files, nil, gof.Files)))
	doc.Set(NamespaceRequest, facts.OK(facts.Request{Trigger: "commit"}))
	in := policy.NewDocumentInput(doc, nil)
	if _, err := in.ForGate([]string{surface.Namespace}, nil).RegoTerms(); err != nil {
		t.Fatal(err)
	}
	return in, doc
}

// classSurfaceParams is class_surface's default params overridden by params.
func classSurfaceParams(e *Engine, params map[string]any) map[string]any {
	eff, _ := e.Effective(classSurface)
	p := gate.CloneValue(eff.Params).(map[string]any)
	for k, v := range params {
		p[k] = v
	}
	return p
}

// evalClassSurface runs the gate with its default params overridden by params.
func evalClassSurface(t testing.TB, e *Engine, in *policy.Input, doc *facts.Document, params map[string]any) Verdict {
	t.Helper()
	g, _ := e.Gate(classSurface)
	v, _ := evalGate(context.Background(), g, g.Severity, classSurfaceParams(e, params), in, doc)
	return v
}

// processCPU is the CPU time (user and system) this process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestClassSurfaceMatchesReference checks the runner and policy against
// refSurface on random trees of Python classes and Go structs full of
// repeated names, cycles and diamonds: the same classes over the cap with
// the same counts, and (ambiguous: block) the same ambiguous bases.
func TestClassSurfaceMatchesReference(t *testing.T) {
	e := builtinEngine(t, t.TempDir())
	for seed := range uint64(8) {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			py, gof := syntheticPython(seed, 400, 7), syntheticGo(seed, 300, 5)
			limit := 25 + int(seed)*3
			want := newRefSurface(py, gof).expect(limit)
			params := map[string]any{"max_public_members": int64(limit), "ambiguous": "block"}
			in, doc := classSurfaceInput(t, e, py, gof, params)
			v := evalClassSurface(t, e, in, doc, params)
			if v.Outcome == CouldNotRun {
				t.Fatalf("could not run: %+v", v.Reasons)
			}
			if len(want) == 0 || !slices.ContainsFunc(want, func(w string) bool { return !strings.HasSuffix(w, " inherited 0") && strings.Contains(w, "over_cap") }) {
				t.Fatal("the synthetic tree has no violation, or no root cause with an inheritor, to compare: the test would prove nothing")
			}
			if g := got(t, v.Violations); !slices.Equal(g, want) {
				t.Errorf("policy and reference differ\n got: %q\nwant: %q", g, want)
			}
		})
	}
}

// BenchmarkClassSurface evaluates class_surface on synthetic facts of 1,000,
// 5,000 and 20,000 classes, 7 to a file: "project" python facts shaped like
// a real code base, "adversarial" python facts with a third of the names
// repeated (ambiguous bases everywhere) and random cycles, both with an
// empty go namespace as a Python-only repository has; "go" the structs of
// syntheticGo and no Python. Each op is what an evaluation does after the
// scanners: the surface runner's resolution, the conversion of its facts,
// the policy.
func BenchmarkClassSurface(b *testing.B) {
	e := builtinEngine(b, b.TempDir())
	noGo := func(py facts.Python) (facts.Python, facts.Go) { return py, facts.Go{Files: []facts.GoFile{}} }
	for _, shape := range []struct {
		name string
		gen  func(seed uint64, n, perFile int) (facts.Python, facts.Go)
	}{
		{"project", func(seed uint64, n, perFile int) (facts.Python, facts.Go) {
			return noGo(projectPython(seed, n, perFile))
		}},
		{"adversarial", func(seed uint64, n, perFile int) (facts.Python, facts.Go) {
			return noGo(syntheticPython(seed, n, perFile))
		}},
		{"go", func(seed uint64, n, perFile int) (facts.Python, facts.Go) {
			return facts.Python{Files: []facts.PythonFile{}}, syntheticGo(seed, n, perFile)
		}},
	} {
		for _, n := range []int{1_000, 5_000, 20_000} {
			b.Run(fmt.Sprintf("%s/%d", shape.name, n), func(b *testing.B) {
				py, gof := shape.gen(1, n, 7)
				cpu0 := processCPU(b)
				for b.Loop() {
					in, doc := classSurfaceInput(b, e, py, gof, nil)
					if v := evalClassSurface(b, e, in, doc, nil); v.Outcome != Failed {
						b.Fatalf("outcome %s: %+v", v.Outcome, v.Reasons)
					}
				}
				// CPU time next to wall time: on a busy machine wall time
				// says more about the neighbours than about the policy.
				b.ReportMetric(float64(processCPU(b)-cpu0)/1e6/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

// BenchmarkClassSurfaceFacts measures the resolution of 5,000 classes of
// python facts and its conversion to the form policies read.
func BenchmarkClassSurfaceFacts(b *testing.B) {
	e := builtinEngine(b, b.TempDir())
	py, gof := projectPython(1, 5_000, 7), facts.Go{Files: []facts.GoFile{}}
	for b.Loop() {
		classSurfaceInput(b, e, py, gof, nil)
	}
}
