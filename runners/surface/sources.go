package surface

import (
	"slices"
	"strings"

	"github.com/tausik/tausik/facts"
)

// sourcer is one goroutine's scratch for closureFiles: marks numbered per
// component, reused from one listed component to the next.
type sourcer struct {
	seen  []int
	stack []int
	files []string
}

// closureFiles lists, sorted and without duplicates, the files whose
// change can alter what the classes of component ci count (their
// facts.SurfaceClass.Sources, before each drops its own file): the files
// defining the classes of its closure (itself and every component it
// reaches), the files of the Go methods those structs count as their own,
// and, for every ambiguous base written in the closure, the files of each
// candidate's closure, which its worst count unites. The list is s's
// scratch, valid until the next call.
func (s *sourcer) closureFiles(r *resolver, comps []*component, of []int, ci int) []string {
	mark := ci + 1
	s.files, s.stack = s.files[:0], s.stack[:0]
	push := func(c int) {
		if s.seen[c] != mark {
			s.seen[c] = mark
			s.stack = append(s.stack, c)
		}
	}
	push(ci)
	for _, a := range comps[ci].amb {
		for _, k := range r.ambs[a].cands {
			push(of[k])
		}
	}
	for len(s.stack) > 0 {
		c := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		for _, m := range comps[c].members {
			s.files = append(s.files, r.cls[m].path)
			if r.cls[m].lang == LangGo {
				s.files = r.goMethodFiles(m, s.files)
			}
			for _, e := range r.edges[m] {
				push(of[e])
			}
		}
	}
	slices.Sort(s.files)
	return slices.Compact(s.files)
}

// goMethodFiles appends to files the files of Go struct id's package,
// other than its own, that declare a method on it. It is asked only for
// the closures of the listed classes, so the files of the package are
// found where they lie in r.gof (sorted by path), not indexed up front.
func (r *resolver) goMethodFiles(id int, files []string) []string {
	c := &r.cls[id]
	pkg := c.unit[len(c.dir)+1:] // unit = dir:package
	prefix := c.dir + "/"
	if c.dir == "" {
		prefix = ""
	}
	i, _ := slices.BinarySearchFunc(r.gof, prefix, func(f facts.GoFile, p string) int { return strings.Compare(f.Path, p) })
	for ; i < len(r.gof) && strings.HasPrefix(r.gof[i].Path, prefix); i++ {
		f := &r.gof[i]
		if f.Path == c.path || f.Package != pkg || goDir(f.Path) != c.dir {
			continue
		}
		if slices.ContainsFunc(f.Methods, func(m facts.GoMethod) bool { return m.Recv == c.name }) {
			files = append(files, f.Path)
		}
	}
	return files
}

// noSources is the Sources of every class whose count comes from its own
// file alone: shared, as no list of the namespace is ever written to.
var noSources = []string{}

// sourcesOf is facts.SurfaceClass.Sources of a class in file own whose
// component's closure files are files (sorted): a new list of files
// without own.
func sourcesOf(files []string, own string) []string {
	if len(files) == 0 || len(files) == 1 && files[0] == own {
		return noSources
	}
	return dropFile(files, own)
}

// dropFile is a new list of files without p.
func dropFile(files []string, p string) []string {
	out := make([]string, 0, len(files))
	for _, f := range files {
		if f != p {
			out = append(out, f)
		}
	}
	return out
}
