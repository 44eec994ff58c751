package surface

import (
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/tausik/tausik/runners/internal/pyscan"
)

// binding is what a name a file imports stands for: a module (attr "") or
// the name attr of a module.
type binding struct{ module, attr string }

// pyModules knows the Python modules of the tree: which scanned files each
// module name has, and what each scanned file binds by import.
type pyModules struct {
	files    map[string][]string           // module -> scanned file paths
	bindings map[string]map[string]binding // file path -> name -> binding
	chain    map[string]string             // scanned file path -> its module by its package chain
	suffixes map[string][]string           // a scanned file's path as a dotted name, and each dotted suffix of it -> the files
	mu       sync.Mutex                    // guards found: resolve asks from several goroutines
	found    map[string][]string           // module -> filesOf's answer, once asked
}

// newPyModules names every module of all (every .py file of the repository,
// scanned or not: a directory is a package when it holds an __init__.py)
// and reads the bindings of the scanned files, names[i] being those of
// scanned[i].
func newPyModules(all []string, scanned []string, names []pyscan.Names) *pyModules {
	pkgDirs := map[string]bool{}
	for _, p := range all {
		if path.Base(p) == "__init__.py" {
			pkgDirs[path.Dir(p)] = true
		}
	}
	isPackage := func(dir string) bool { return pkgDirs[dir] }
	m := &pyModules{files: make(map[string][]string, len(scanned)), bindings: make(map[string]map[string]binding, len(scanned)),
		chain: make(map[string]string, len(scanned)), found: map[string][]string{},
		suffixes: make(map[string][]string, 2*len(scanned))}
	for i, p := range scanned {
		mod, pkg := pyscan.PythonModule(p, isPackage)
		m.files[mod] = append(m.files[mod], p)
		m.chain[p] = mod
		d := strings.TrimSuffix(strings.ReplaceAll(strings.TrimSuffix(p, ".py"), "/", "."), ".__init__")
		for {
			m.suffixes[d] = append(m.suffixes[d], p)
			_, rest, ok := strings.Cut(d, ".")
			if !ok {
				break
			}
			d = rest
		}
		b := map[string]binding{}
		for _, imp := range names[i].Imports {
			if !imp.From {
				if imp.As != "" {
					b[imp.As] = binding{module: imp.Module}
				} else {
					head, _, _ := strings.Cut(imp.Module, ".")
					b[head] = binding{module: head}
				}
				continue
			}
			abs, ok := pyscan.ResolveRelative(pkg, imp.Level, imp.Module)
			if !ok {
				continue
			}
			for j, n := range imp.Names {
				if n == "*" {
					continue
				}
				as := n
				if imp.Aliases != nil && imp.Aliases[j] != "" {
					as = imp.Aliases[j]
				}
				b[as] = binding{module: abs, attr: n}
			}
		}
		m.bindings[p] = b
	}
	return m
}

// target is where a dotted base written in file p points through its
// imports: module and class name. imported is false when the base's first
// name is not imported (the same-file and unique-name rules apply then);
// a base naming a module, not a class in one, gives no name.
func (m *pyModules) target(p, dotted string) (module, name string, imported bool) {
	// Cut, not Split: a slice for every base was half of target's time.
	head, rest, qualified := strings.Cut(dotted, ".")
	b, ok := m.bindings[p][head]
	switch {
	case !ok:
		return "", "", false
	case !qualified && b.attr != "":
		return b.module, b.attr, true
	case !qualified:
		return "", "", true
	}
	module = b.module
	if b.attr != "" {
		module += "." + b.attr // from pkg import sub; sub.X
	}
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		module, rest = module+"."+rest[:i], rest[i+1:]
	}
	return module, rest, true
}

// filesOf is the scanned files of module mod: those whose package chain
// names it, else those whose path spells it below some directory, as a
// namespace package (a directory without __init__.py) or a source root
// (src/) would have it on sys.path. That directory must lie at or above the
// top of the file's package chain (mod ends with the chain's module): a
// sys.path entry inside a package is not how Python imports, so `import
// logging` never finds app/logging.py when app/ holds an __init__.py.
func (m *pyModules) filesOf(mod string) []string {
	if fs := m.files[mod]; len(fs) > 0 {
		return fs
	}
	m.mu.Lock()
	fs, ok := m.found[mod]
	m.mu.Unlock()
	if ok {
		return fs
	}
	var out []string // the files whose dotted path is mod or ends with "."+mod
	for _, p := range m.suffixes[mod] {
		if c := m.chain[p]; mod == c || strings.HasSuffix(mod, "."+c) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	m.mu.Lock()
	m.found[mod] = out
	m.mu.Unlock()
	return out
}
