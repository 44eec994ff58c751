package surface_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners/internal/pyscan"
	"github.com/tausik/tausik/runners/surface"
)

// randomTree: Python files in packages whose paths repeat segments (so
// dotted suffixes collide), importing each other in every form, and Go
// files with embedded, qualified and method-bearing structs.
func randomTree(t *testing.T, seed uint64, n int) ([]facts.PythonFile, []pyscan.Names, []facts.GoFile) {
	rng := rand.New(rand.NewPCG(seed, 99))
	dirs := []string{"a", "a/b", "src/a", "src/a/b", "lib/b", "b/a", "x.y", "a/b/c", "src", ""}
	mods := []string{}
	paths := map[string]bool{}
	var srcs []struct{ path, src string }
	for _, d := range dirs {
		if d != "" && rng.IntN(3) > 0 {
			init := ""
			if rng.IntN(2) == 0 {
				init = fmt.Sprintf("from .m%d import C%d\n", rng.IntN(6), rng.IntN(n))
			}
			p := strings.TrimPrefix(d+"/__init__.py", "/")
			paths[p] = true
			srcs = append(srcs, struct{ path, src string }{p, init + fmt.Sprintf("class C%d:\n    def i%d(self): pass\n", rng.IntN(n), rng.IntN(50))})
		}
		for m := range 6 {
			mods = append(mods, strings.TrimPrefix(strings.ReplaceAll(d, "/", ".")+fmt.Sprintf(".m%d", m), "."))
		}
	}
	cls := 0
	for cls < n {
		d := dirs[rng.IntN(len(dirs))]
		p := strings.TrimPrefix(fmt.Sprintf("%s/m%d.py", d, rng.IntN(6+cls/40)), "/")
		if paths[p] {
			continue
		}
		paths[p] = true
		var b strings.Builder
		var aliases []string
		for range rng.IntN(4) {
			mod := mods[rng.IntN(len(mods))]
			short := mod[strings.LastIndexByte(mod, '.')+1:]
			switch rng.IntN(5) {
			case 0:
				fmt.Fprintf(&b, "import %s\n", mod)
				aliases = append(aliases, mod)
			case 1:
				fmt.Fprintf(&b, "import %s as al%d\n", mod, len(aliases))
				aliases = append(aliases, fmt.Sprintf("al%d", len(aliases)))
			case 2:
				if i := strings.LastIndexByte(mod, '.'); i > 0 {
					fmt.Fprintf(&b, "from %s import %s\n", mod[:i], short)
					aliases = append(aliases, short)
				}
			case 3:
				c := fmt.Sprintf("C%d", rng.IntN(n))
				fmt.Fprintf(&b, "from %s import %s\n", mod, c)
			default:
				fmt.Fprintf(&b, "from . import m%d\n", rng.IntN(6))
				aliases = append(aliases, fmt.Sprintf("m%d", rng.IntN(6)))
			}
		}
		for range 1 + rng.IntN(16) {
			var bases []string
			for range rng.IntN(3) {
				c := fmt.Sprintf("C%d", rng.IntN(n))
				if len(aliases) > 0 && rng.IntN(2) == 0 {
					c = aliases[rng.IntN(len(aliases))] + "." + c
				}
				bases = append(bases, c)
			}
			fmt.Fprintf(&b, "\nclass C%d(%s):\n", rng.IntN(n), strings.Join(bases, ", "))
			for range 1 + rng.IntN(6) {
				fmt.Fprintf(&b, "    def p%d(self): pass\n", rng.IntN(80))
			}
			cls++
		}
		srcs = append(srcs, struct{ path, src string }{p, b.String()})
	}
	slices.SortFunc(srcs, func(x, y struct{ path, src string }) int { return strings.Compare(x.path, y.path) })
	sc := pyscan.NewScanner()
	var py []facts.PythonFile
	var names []pyscan.Names
	for _, s := range srcs {
		f, nm := sc.ScanNames(s.path, []byte(s.src))
		if !f.Parsed {
			t.Fatalf("%s: %+v\n%s", s.path, f.Error, s.src)
		}
		py, names = append(py, f), append(names, nm)
	}
	var gof []facts.GoFile
	for i := range n / 20 {
		pkg := fmt.Sprintf("p%d", i%5)
		f := facts.GoFile{Path: fmt.Sprintf("g/%s/f%04d.go", pkg, i), Package: pkg, Parsed: true, ImportPath: "ex.test/g/" + pkg,
			Imports: map[string]string{"q": fmt.Sprintf("ex.test/g/p%d", rng.IntN(5))}}
		for j := range 5 {
			s := facts.GoStruct{Name: fmt.Sprintf("S%d", rng.IntN(n/10)), Line: j + 1, Bases: []string{}, Fields: []string{fmt.Sprintf("F%d", rng.IntN(30))}}
			for range rng.IntN(3) {
				if rng.IntN(2) == 0 {
					s.Bases = append(s.Bases, fmt.Sprintf("q.S%d", rng.IntN(n/10)))
				} else {
					s.Bases = append(s.Bases, fmt.Sprintf("S%d", rng.IntN(n/10)))
				}
			}
			f.Structs = append(f.Structs, s)
			f.Methods = append(f.Methods, facts.GoMethod{Recv: fmt.Sprintf("S%d", rng.IntN(n/10)), Name: fmt.Sprintf("M%d", rng.IntN(20))})
		}
		gof = append(gof, f)
	}
	return py, names, gof
}

// TestComputeIsTheSameOnAnyCores: on random trees whose dotted paths
// collide, Compute gives the same namespace on 1, 2 and 8 cores, twice each,
// with import facts and without: its parallel parts (interning beside the
// listing, the closures a depth at a time, the listed classes written on
// every core) never show in its output.
func TestComputeIsTheSameOnAnyCores(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for seed := range uint64(3) {
		py, names, gof := randomTree(t, seed, 2500+int(seed)*700)
		for _, cap := range []int{2, 6} {
			p := surface.Params{Roots: []string{"."}, Cap: cap, Named: map[string]bool{"C1": true}}
			runtime.GOMAXPROCS(1)
			want, wantNoNames := surface.Compute(p, py, names, gof), surface.Compute(p, py, nil, gof)
			if len(want.Classes) < 2 || len(want.AmbiguousBases) == 0 {
				t.Fatalf("seed %d cap %d: %d classes listed, %d ambiguous: the tree tests nothing", seed, cap, len(want.Classes), len(want.AmbiguousBases))
			}
			for _, procs := range []int{2, 8, 8} {
				runtime.GOMAXPROCS(procs)
				if got := surface.Compute(p, py, names, gof); !reflect.DeepEqual(got, want) {
					t.Fatalf("seed %d cap %d: %d cores and 1 differ (%d vs %d classes)", seed, cap, procs, len(got.Classes), len(want.Classes))
				}
				if got := surface.Compute(p, py, nil, gof); !reflect.DeepEqual(got, wantNoNames) {
					t.Fatalf("seed %d cap %d, no import facts: %d cores and 1 differ", seed, cap, procs)
				}
			}
		}
	}
}
