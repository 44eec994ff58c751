package surface

import "slices"

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
// candidate's closure, which its worst count unites.
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
			s.files = append(s.files, r.cls[m].more...)
			for _, e := range r.edges[m] {
				push(of[e])
			}
		}
	}
	slices.Sort(s.files)
	return slices.Clone(slices.Compact(s.files))
}

// sourcesOf is facts.SurfaceClass.Sources of a class in file own whose
// component's closure files are files (sorted): files without own.
func sourcesOf(files []string, own string) []string {
	if _, found := slices.BinarySearch(files, own); !found {
		return files
	}
	return dropFile(files, own)
}

// dropFile is files without p, files itself when it does not hold p: the
// lists are shared and never written to.
func dropFile(files []string, p string) []string {
	if !slices.Contains(files, p) {
		return files
	}
	out := make([]string, 0, len(files)-1)
	for _, f := range files {
		if f != p {
			out = append(out, f)
		}
	}
	return out
}
