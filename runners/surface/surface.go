// Package surface is the runner for the "surface" namespace: every Python
// class's and Go struct's composed public surface, counted. It reads the
// class facts of the shared Python and Go scanners (runners/internal/pyscan
// and runners/internal/goscan, each cached), keeps the files under the
// roots and outside the exclusions the reading gate's params name
// (Runner.Options), resolves each base to its
// candidates, and unites public names over each class's closure, so
// that the class_surface policy only compares numbers with its cap and
// baseline. What is a candidate depends on which files are scanned, which is
// why the scan follows the params; what counts as over, and what to do
// about an ambiguous base, stays the policy's.
//
// The resolution is docs/facts-surface.md's: a Python base whose first name
// the file imports names the class its import leads to in the scanned tree
// (import m [as n], from m import X [as Y], relative imports, a package's
// __init__.py re-export followed one level; outside the tree, nothing); any
// other names a class X in the same file, else the unique class X of the
// tree. A Go embedded T names a struct T of its own package, q.T one of the
// package whose import_path is the path the file imports as q (without a
// go.mod, a directory that path ends with). Two or more candidates are an
// ambiguity, recorded with what each would bring.
package surface

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/internal/goscan"
	"github.com/tausik/tausik/runners/internal/pyscan"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = "surface"

// Runner gathers the "surface" namespace. It is safe for concurrent use.
type Runner struct {
	py  runners.Sources[pyFile]
	go_ *goscan.Runner
}

// New returns the surface runner; runners.WithCache keeps what it reads of
// each file in a store (the Go facts under the go runner's namespace, goscan.Namespace).
func New(opts ...runners.SourceOption) *Runner {
	r := &Runner{py: pySources(), go_: goscan.New(opts...)}
	for _, o := range opts {
		o(&r.py.CacheConfig)
	}
	return r
}

// Namespace implements runners.Runner.
func (*Runner) Namespace() string { return Namespace }

// Options implements runners.Configurable: the Params the gate's params
// give.
func (*Runner) Options(params map[string]any) any { return ParamsOf(params) }

// Gather implements runners.Runner. The Params come from s.Options[Namespace]
// (the defaults when absent);
// python or go facts that could not be gathered leave the namespace with
// their status and reason. Each fact cache is written while the other
// language is scanned and while the bases are resolved, on whichever core
// is free (~50 ms of a cold run on the standard library, ~100 ms on
// GOROOT/src); Gather returns once both are written.
func (r *Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	var py, gof facts.Namespace
	var pys []pyFile
	var wg, saves sync.WaitGroup
	defer saves.Wait()
	// Both indexes load before either language lists the repository
	// (runners.Sources.Start).
	pyRest, goRest := r.py.Start(ctx, s), r.go_.Start(ctx, s)
	wg.Go(func() {
		pyFiles, save, err := pyRest()
		saves.Go(save)
		if pys, py = pyFiles, facts.OK(nil); err != nil {
			py = facts.Error(err.Error())
		}
	})
	wg.Go(func() {
		var save func()
		gof, save = goRest()
		saves.Go(save)
	})
	wg.Wait()
	for _, x := range []struct {
		ns   facts.Namespace
		what string
	}{{py, "Python"}, {gof, "Go"}} {
		if x.ns.Status != facts.StatusOK {
			return facts.Namespace{Status: x.ns.Status, Reason: fmt.Sprintf("could not scan the %s files: %s", x.what, x.ns.Reason)}
		}
	}
	files := make([]facts.PythonFile, len(pys))
	names := make([]pyscan.Names, len(pys))
	for i, f := range pys {
		files[i], names[i] = f.File, f.Names
	}
	p, ok := s.Options[Namespace].(Params)
	if !ok {
		p = ParamsOf(nil)
	}
	return facts.OK(Compute(p, files, names, gof.Data.(facts.Go).Files))
}

// Compute is the namespace for the given Python and Go file facts (each
// sorted by path) under params p. names[i] holds what py[i] imports and its
// classes' dotted bases; with names nil, Python bases resolve by name
// alone (the same file, else the unique class of that name).
func Compute(p Params, py []facts.PythonFile, names []pyscan.Names, gof []facts.GoFile) facts.Surface {
	out := facts.Surface{Roots: []facts.SurfaceRoot{}, Exclude: []string{}, Unparsed: []facts.SurfaceError{}}
	var globs []func(string) bool
	for _, g := range p.Exclude {
		if c, ok := compileExclude(g); ok {
			out.Exclude = append(out.Exclude, g)
			globs = append(globs, c.Match)
		}
	}
	roots := make([]string, len(p.Roots))
	for i, x := range p.Roots {
		roots[i] = normRoot(x)
		n := 0
		for _, f := range py {
			n += b2i(underRoot(f.Path, roots[i]))
		}
		for _, f := range gof {
			n += b2i(underRoot(f.Path, roots[i]))
		}
		out.Roots = append(out.Roots, facts.SurfaceRoot{Root: x, Whole: roots[i] == "", Files: n})
	}
	scanned := func(p string) bool {
		return slices.ContainsFunc(roots, func(r string) bool { return underRoot(p, r) }) &&
			!slices.ContainsFunc(globs, func(m func(string) bool) bool { return m(p) })
	}
	var pys []facts.PythonFile
	var pyNames []pyscan.Names
	var all, paths []string
	for i, f := range py {
		all = append(all, f.Path)
		if scanned(f.Path) {
			pys = append(pys, f)
			paths = append(paths, f.Path)
			if names != nil {
				pyNames = append(pyNames, names[i])
			}
			if !f.Parsed {
				out.Unparsed = append(out.Unparsed, unparsed(f.Path, f.Error))
			}
		}
	}
	var gos []facts.GoFile
	for _, f := range gof {
		if scanned(f.Path) {
			gos = append(gos, f)
			if !f.Parsed {
				e := facts.PythonError{}
				if f.Error != nil {
					e = facts.PythonError(*f.Error)
				}
				out.Unparsed = append(out.Unparsed, unparsed(f.Path, &e))
			}
		}
	}
	out.Scanned = len(pys) + len(gos)
	// The module table and the class list need nothing of each other: the
	// table is built on the other core (~5 ms of the standard library's).
	var mods *pyModules
	var wg sync.WaitGroup
	if names != nil {
		wg.Go(func() { mods = newPyModules(all, paths, pyNames) })
	}
	r := newResolver(pys, pyNames, gos)
	wg.Wait()
	r.resolve(mods)
	out.Classes, out.AmbiguousBases = r.classes(p)
	out.Total, out.Cap = len(r.cls), p.Cap
	return out
}

// unparsed locates a file that does not parse.
func unparsed(p string, e *facts.PythonError) facts.SurfaceError {
	if e == nil {
		return facts.SurfaceError{Path: p}
	}
	return facts.SurfaceError{Path: p, Line: e.Line, Msg: e.Msg}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
