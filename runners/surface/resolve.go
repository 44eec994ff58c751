package surface

import (
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners/internal/pyscan"
)

// Languages of a SurfaceClass.
const (
	LangPython = "python"
	LangGo     = "go"
)

// class is one Python class or Go struct while its bases are resolved.
type class struct {
	name, lang, path string
	line             int
	// unit is where an unqualified base is looked up first (Python: the
	// file) or only (Go: directory and package clause).
	unit string
	own  []int32 // its public names, interned, sorted
	// dotted (Python, with names) holds each of bases as written, dotted.
	dotted []string
	// nameID is its name, interned with the public names.
	nameID int32
	bases  []string
	// Go only: the file's imports, its directory, and whether another
	// package can import it (not a test file, a main or an external test
	// package).
	imports    map[string]string
	dir        string
	importable bool
	// importPath is the import path of its package from the nearest
	// go.mod; "" without one (the import path's suffix decides then).
	importPath string
	// flags (Python, with names) is what its statement says beyond its
	// facts; test is whether its file is a test file (testFile).
	flags pyscan.ClassFlags
	test  bool
}

// ambiguity is a base of writer with two or more candidates.
type ambiguity struct {
	writer int
	base   string
	cands  []int
}

// resolver holds the classes of one scan and what resolving them gives.
type resolver struct {
	cls    []class
	gof    []facts.GoFile      // the scanned Go files, by path (goMethodFiles)
	mods   *pyModules          // nil: Python bases resolve by name alone
	inFile map[[2]string][]int // (path, name) -> the Python classes
	names  map[string]int32    // public name -> its interned id (internAll's alone)
	idName []string            // interned id -> its name (internAll's alone)
	byName map[[2]string][]int
	edges  [][]int
	amb    [][]int // per class: its own ambiguities (indices into ambs)
	ambs   []ambiguity
}

// newResolver lists the classes of the parsed Python files, then the
// structs of the parsed Go files, a struct's own public names being its
// exported fields and the exported methods of its type in its package.
// With names (and resolve's mods then), names[i] holds the dotted bases
// of py[i]'s classes.
func newResolver(py []facts.PythonFile, names []pyscan.Names, gof []facts.GoFile) *resolver {
	// The maps sized up front: growing them was most of this function's
	// time on the Python standard library (13,000 classes).
	// names: at most every class's name and public names (37,000 distinct
	// of 60,000 there; twice the classes, as before, made it grow).
	n, words := 0, 0
	for _, f := range py {
		n += len(f.Classes)
		for _, c := range f.Classes {
			words += len(c.Public)
		}
	}
	pyN := n
	units := make([]string, len(gof)) // each Go file's goUnit
	for i, f := range gof {
		units[i] = goUnit(f)
		n += len(f.Structs)
		for _, s := range f.Structs {
			words += len(s.Fields)
		}
		words += len(f.Methods)
	}
	r := &resolver{names: make(map[string]int32, n+words), idName: make([]string, 0, n+words), byName: make(map[[2]string][]int, n),
		inFile: make(map[[2]string][]int, pyN), cls: make([]class, n), gof: gof}
	// The names are interned on one core while the classes are listed on
	// the other (~12 and ~9 ms of the standard library's).
	var wg sync.WaitGroup
	wg.Go(func() { r.internAll(py, gof, units, words) })
	id := 0
	for i, f := range py {
		for j, c := range f.Classes {
			k := &r.cls[id]
			k.name, k.lang, k.path, k.line, k.unit, k.bases = c.Name, LangPython, f.Path, c.Line, f.Path, c.Bases
			k.test = testFile(f.Path)
			if names != nil && j < len(names[i].Bases) && len(names[i].Bases[j]) == len(c.Bases) {
				k.dotted = names[i].Bases[j]
			}
			if names != nil && j < len(names[i].Flags) {
				k.flags = names[i].Flags[j]
			}
			r.inFile[[2]string{f.Path, c.Name}] = append(r.inFile[[2]string{f.Path, c.Name}], id)
			r.byName[[2]string{LangPython, c.Name}] = append(r.byName[[2]string{LangPython, c.Name}], id)
			id++
		}
	}
	for i, f := range gof {
		unit, dir := units[i], goDir(f.Path)
		importable := !strings.HasSuffix(f.Path, "_test.go") && f.Package != "main" && !strings.HasSuffix(f.Package, "_test")
		for _, s := range f.Structs {
			k := &r.cls[id]
			k.name, k.lang, k.path, k.line, k.unit, k.bases = s.Name, LangGo, f.Path, s.Line, unit, s.Bases
			k.imports, k.dir, k.importable, k.importPath = f.Imports, dir, importable, f.ImportPath
			k.test = testFile(f.Path)
			r.byName[[2]string{LangGo, s.Name}] = append(r.byName[[2]string{LangGo, s.Name}], id)
			id++
		}
	}
	wg.Wait()
	return r
}

// internAll fills every class's own names and nameID, in the order of
// newResolver's list, writing no other field of a class: its Python
// classes' public names, then the Go structs' exported fields and the
// exported methods of their types (units[i]: gof[i]'s goUnit). words
// estimates the public names
// written (methods of types that are not structs counted too): the
// classes' sets are cut from one array of that capacity, regrown if short.
func (r *resolver) internAll(py []facts.PythonFile, gof []facts.GoFile, units []string, words int) {
	flat := make([]int32, 0, words)
	intern := func(id int, names []string, more []string) {
		start := len(flat)
		for _, n := range names {
			flat = append(flat, r.id(n))
		}
		for _, n := range more {
			flat = append(flat, r.id(n))
		}
		own := flat[start:len(flat):len(flat)] // full: an append to it copies
		slices.Sort(own)
		r.cls[id].own = slices.Compact(own)
	}
	id := 0
	for _, f := range py {
		for _, c := range f.Classes {
			intern(id, c.Public, nil)
			r.cls[id].nameID = r.id(c.Name)
			id++
		}
	}
	// A method is its package's (the unit) and its receiver's: keyed by
	// the pair, not by one string made for each (~6 ms of GOROOT/src's).
	n := 0
	for _, f := range gof {
		n += len(f.Methods)
	}
	methods := make(map[[2]string][]string, n)
	for i, f := range gof {
		for _, m := range f.Methods {
			k := [2]string{units[i], m.Recv}
			methods[k] = append(methods[k], m.Name)
		}
	}
	for i, f := range gof {
		for _, s := range f.Structs {
			intern(id, s.Fields, methods[[2]string{units[i], s.Name}])
			r.cls[id].nameID = r.id(s.Name)
			id++
		}
	}
}

// goDir is the directory of a repo-relative path, "" at the top.
func goDir(p string) string {
	if d := path.Dir(p); d != "." {
		return d
	}
	return ""
}

// goUnit names a Go file's package: its directory and package clause.
func goUnit(f facts.GoFile) string { return goDir(f.Path) + ":" + f.Package }

// id is the interned id of name.
func (r *resolver) id(name string) int32 {
	id, ok := r.names[name]
	if !ok {
		id = int32(len(r.names))
		r.names[name] = id
		r.idName = append(r.idName, name)
	}
	return id
}

// resolve turns every base into an edge (one candidate), an ambiguity (two
// or more) or nothing (none: object, the standard library, third-party
// code, an interface). The candidates are looked up on every core, each
// class's on one; the edges and ambiguities are then recorded in class
// order, as one loop would (~12 ms of the standard library's Compute).
// mods is the Python module table, nil when there are no import facts.
func (r *resolver) resolve(mods *pyModules) {
	r.mods = mods
	r.edges = make([][]int, len(r.cls))
	r.amb = make([][]int, len(r.cls))
	bases := make([][]string, len(r.cls)) // each class's distinct bases as written
	cands := make([][][]int, len(r.cls))  // cands[id][i]: bases[id][i]'s candidates
	workers := max(1, min(runtime.GOMAXPROCS(0), len(r.cls)/1000))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for id := w; id < len(r.cls); id += workers {
				c := r.cls[id]
				written := c.bases
				if c.dotted != nil {
					written = c.dotted
				}
				for i, b := range written {
					if slices.Contains(written[:i], b) { // a class has a few bases: no map
						continue
					}
					bases[id] = append(bases[id], b)
					cands[id] = append(cands[id], r.candidates(id, b))
				}
			}
		})
	}
	wg.Wait()
	for id := range r.cls {
		for i, cs := range cands[id] {
			switch {
			case len(cs) == 1:
				r.edges[id] = append(r.edges[id], cs[0])
			case len(cs) > 1:
				r.amb[id] = append(r.amb[id], len(r.ambs))
				r.ambs = append(r.ambs, ambiguity{id, bases[id][i], cs})
			}
		}
	}
}

// candidates are the classes base b of class id may name, never id itself.
// Python: the classes named b in id's file, else all of them. Go, as the
// compiler reads it: an unqualified T is a struct of id's package; q.T a
// struct T of the package the file imports as q, importable, in a
// directory the import path ends with (on a "/" boundary).
func (r *resolver) candidates(id int, b string) []int {
	c := r.cls[id]
	if c.lang == LangPython && c.dotted != nil {
		return r.pyCandidates(id, b)
	}
	if c.lang == LangPython {
		var local, all []int
		for _, k := range r.byName[[2]string{LangPython, b}] {
			if k == id {
				continue
			}
			all = append(all, k)
			if r.cls[k].unit == c.unit {
				local = append(local, k)
			}
		}
		if len(local) > 0 {
			return local
		}
		return all
	}
	q, t, qualified := strings.Cut(b, ".")
	if !qualified {
		t = b
	}
	imp := c.imports[q]
	var out []int
	for _, k := range r.byName[[2]string{LangGo, t}] {
		o := r.cls[k]
		switch {
		case k == id:
		case !qualified && o.unit == c.unit:
			out = append(out, k)
		case !qualified || imp == "" || !o.importable:
		case o.importPath != "" && imp == o.importPath:
			out = append(out, k)
		case o.importPath == "" && o.dir != "" && strings.HasSuffix("/"+imp, "/"+o.dir):
			out = append(out, k)
		}
	}
	return out
}

// pyCandidates resolves a Python base written b (dotted) of class id
// through its file's imports: "import m [as n]" with n.X, "from m import X
// [as Y]", relative imports, to the classes X of module m in the scanned
// tree, following a package __init__.py's "from .sub import X" one level.
// An imported base that leads outside the scanned tree names none. A base
// whose first name no import binds (X, or m.X with m bound some other way,
// m = importlib.import_module("m")) is a class X of the same file, else the
// unique class X of the tree, as without imports.
func (r *resolver) pyCandidates(id int, b string) []int {
	c := r.cls[id]
	mod, name, imported := r.mods.target(c.path, b)
	if imported {
		if name == "" {
			return nil
		}
		if cands := r.inModule(mod, name, id); len(cands) > 0 {
			return cands
		}
		var out []int
		for _, f := range r.mods.filesOf(mod) {
			if x, ok := r.mods.bindings[f][name]; ok && x.attr != "" {
				out = append(out, r.inModule(x.module, x.attr, id)...)
			}
		}
		return out
	}
	last := b[strings.LastIndex(b, ".")+1:]
	if local := without(r.inFile[[2]string{c.path, last}], id); len(local) > 0 {
		return local
	}
	return without(r.byName[[2]string{LangPython, last}], id)
}

// inModule is the classes named name in the files of module mod, never id.
func (r *resolver) inModule(mod, name string, id int) []int {
	var out []int
	for _, f := range r.mods.filesOf(mod) {
		out = append(out, without(r.inFile[[2]string{f, name}], id)...)
	}
	return out
}

// without is ids less id.
func without(ids []int, id int) []int {
	var out []int
	for _, k := range ids {
		if k != id {
			out = append(out, k)
		}
	}
	return out
}

// loc is a class's "path:line".
func (r *resolver) loc(id int) string { return r.cls[id].path + ":" + strconv.Itoa(r.cls[id].line) }
