package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
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

// refSurface is a plain Go reading of GATES.md's class_surface counting, to
// check the policy against: candidates, resolved edges, transitive union.
type refSurface struct {
	ids     [][2]int // [file, class]
	cls     []facts.PythonClass
	byName  map[string][]int
	surface []map[string]bool
	amb     [][]refAmb // per class: ambiguous bases written anywhere in its closure
}

type refAmb struct {
	writer int
	base   string
	cands  []int
}

func newRefSurface(py facts.Python) *refSurface {
	r := &refSurface{byName: map[string][]int{}}
	for fi, f := range py.Files {
		for ci, c := range f.Classes {
			r.byName[c.Name] = append(r.byName[c.Name], len(r.ids))
			r.ids = append(r.ids, [2]int{fi, ci})
			r.cls = append(r.cls, c)
		}
	}
	edges := make([][]int, len(r.ids))
	own := make([][]refAmb, len(r.ids))
	for id, c := range r.cls {
		for _, b := range c.Bases {
			var local, all []int
			for _, k := range r.byName[b] {
				if k == id {
					continue
				}
				all = append(all, k)
				if r.ids[k][0] == r.ids[id][0] {
					local = append(local, k)
				}
			}
			if len(local) > 0 {
				all = local
			}
			switch {
			case len(all) == 1:
				edges[id] = append(edges[id], all[0])
			case len(all) > 1:
				own[id] = append(own[id], refAmb{id, b, all})
			}
		}
	}
	for id := range r.ids {
		seen := map[int]bool{id: true}
		queue := []int{id}
		names := map[string]bool{}
		var amb []refAmb
		for len(queue) > 0 {
			k := queue[0]
			queue = queue[1:]
			for _, n := range r.cls[k].Public {
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
	}
	return r
}

// expect lists the over_cap and ambiguous_base violations the policy must
// report with no baseline, as "path:line rule detail" strings (an ambiguous
// base once per class and writer-and-base, however many of its candidates
// would take the class over).
func (r *refSurface) expect(py facts.Python, limit int) []string {
	var out []string
	for id, s := range r.surface {
		at := fmt.Sprintf("%s:%d", py.Files[r.ids[id][0]].Path, r.cls[id].Line)
		if len(s) > limit {
			out = append(out, fmt.Sprintf("%s over_cap %d", at, len(s)))
			continue
		}
		seen := map[string]bool{}
		for _, a := range r.amb[id] {
			worst := 0
			for _, cand := range a.cands {
				u := len(s)
				for n := range r.surface[cand] {
					if !s[n] {
						u++
					}
				}
				worst = max(worst, u)
			}
			key := fmt.Sprintf("%s ambiguous_base %s of %s: %d", at, a.base, r.cls[a.writer].Name, worst)
			if worst > limit && !seen[fmt.Sprint(a.writer, a.base)] {
				seen[fmt.Sprint(a.writer, a.base)] = true
				out = append(out, key)
			}
		}
	}
	slices.Sort(out)
	return out
}

var (
	overCapRE    = regexp.MustCompile(`^(\S+:\d+): class \S+ has (\d+) public members \(max`)
	ambiguousRE  = regexp.MustCompile(`^(\S+:\d+): class \S+: base (\S+) of (\S+) is ambiguous .* up to (\d+) public members`)
	classSurface = "class_surface"
)

// got turns the policy's violations into expect's form.
func got(t testing.TB, vs []Violation) []string {
	var out []string
	for _, v := range vs {
		switch v.Rule {
		case "over_cap":
			m := overCapRE.FindStringSubmatch(v.Msg)
			if m == nil {
				t.Fatalf("over_cap message not understood: %s", v.Msg)
			}
			out = append(out, fmt.Sprintf("%s over_cap %s", m[1], m[2]))
		case "ambiguous_base":
			m := ambiguousRE.FindStringSubmatch(v.Msg)
			if m == nil {
				t.Fatalf("ambiguous_base message not understood: %s", v.Msg)
			}
			out = append(out, fmt.Sprintf("%s ambiguous_base %s of %s: %s", m[1], m[2], m[3], m[4]))
		default:
			t.Fatalf("unexpected violation %s: %s", v.Rule, v.Msg)
		}
	}
	slices.Sort(out)
	return out
}

// classSurfaceInput is the facts document for py, as an evaluation shares
// it among its gates: converted to the policies' form once.
func classSurfaceInput(t testing.TB, py facts.Python) (*Input, *facts.Document) {
	t.Helper()
	doc := facts.NewDocument()
	doc.Set("python", facts.OK(py))
	doc.Set(NamespaceRequest, facts.OK(facts.Request{Trigger: "commit"}))
	plain, err := doc.Generic()
	if err != nil {
		t.Fatal(err)
	}
	in := NewInput(plain, nil)
	if _, err := in.regoTerms(); err != nil {
		t.Fatal(err)
	}
	return in, doc
}

// evalClassSurface runs the gate with its default params overridden by params.
func evalClassSurface(t testing.TB, e *Engine, in *Input, doc *facts.Document, params map[string]any) Verdict {
	t.Helper()
	g, _ := e.Gate(classSurface)
	eff, _ := e.Effective(classSurface)
	p := cloneValue(eff.Params).(map[string]any)
	for k, v := range params {
		p[k] = v
	}
	v, _, _ := evalGate(context.Background(), g, g.Severity, p, in, doc)
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

// TestClassSurfaceMatchesReference checks the policy against refSurface on
// random trees full of repeated names, cycles and diamonds: the same classes
// over the cap with the same counts, and the same ambiguous bases reported.
func TestClassSurfaceMatchesReference(t *testing.T) {
	e := builtinEngine(t, t.TempDir())
	for seed := range uint64(8) {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			py := syntheticPython(seed, 400, 7)
			limit := 25 + int(seed)*3
			want := newRefSurface(py).expect(py, limit)
			in, doc := classSurfaceInput(t, py)
			v := evalClassSurface(t, e, in, doc, map[string]any{"max_public_members": int64(limit)})
			if v.Outcome == CouldNotRun {
				t.Fatalf("could not run: %+v", v.Reasons)
			}
			if len(want) == 0 {
				t.Fatal("the synthetic tree has no violation to compare: the test would prove nothing")
			}
			if g := got(t, v.Violations); !slices.Equal(g, want) {
				t.Errorf("policy and reference differ\n got: %q\nwant: %q", g, want)
			}
		})
	}
}

// BenchmarkClassSurface evaluates class_surface on synthetic python facts of
// 1,000, 5,000 and 20,000 classes, 7 to a file: "project" shaped like a real
// code base, "adversarial" with a third of the names repeated (ambiguous
// bases everywhere) and random cycles. The facts are converted once, as an
// evaluation does for all its gates (BenchmarkClassSurfaceFacts measures
// that); this is the policy alone.
func BenchmarkClassSurface(b *testing.B) {
	e := builtinEngine(b, b.TempDir())
	for _, shape := range []struct {
		name string
		gen  func(uint64, int, int) facts.Python
	}{{"project", projectPython}, {"adversarial", syntheticPython}} {
		for _, n := range []int{1_000, 5_000, 20_000} {
			b.Run(fmt.Sprintf("%s/%d", shape.name, n), func(b *testing.B) {
				in, doc := classSurfaceInput(b, shape.gen(1, n, 7))
				cpu0 := processCPU(b)
				for b.Loop() {
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

// BenchmarkClassSurfaceFacts measures turning 5,000 classes of python facts
// into the form policies read: once per evaluation, shared by every gate.
func BenchmarkClassSurfaceFacts(b *testing.B) {
	py := projectPython(1, 5_000, 7)
	for b.Loop() {
		classSurfaceInput(b, py)
	}
}
