package surface

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/tausik/tausik/facts"
)

// component is one strongly connected component of the base graph (a
// class, or classes whose bases form a cycle) with what its closure holds:
// every class reaches exactly what its component does.
type component struct {
	members []int
	self    []int32 // the class names (interned) of members: sorted and deduplicated once unite has run
	surface []int32 // the union of the public names over the closure, sorted
	names   []int32 // the class names (interned) of the closure outside members, sorted
	amb     []int   // the ambiguities written in the closure, sorted
	worst   []int   // worst[i]: the largest count with one candidate of amb[i]
}

// closures computes, component by component, what every class reaches.
// Tarjan's algorithm emits a component after every component it reaches,
// so each one unites its successors' results, already final (uniteAll):
// cycles end and a class reached twice (a diamond) counts once, in time
// linear in the graph and the sets.
func (r *resolver) closures() (comps []*component, of []int) {
	n := len(r.cls)
	of = make([]int, n)
	index, low := make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next := 0
	// The components, their member lists and their members' names are cut
	// from three arrays of one class each, not allocated one by one.
	store := make([]component, 0, n)
	members, self := make([]int, 0, n), make([]int32, 0, n)
	type frame struct{ v, e int }
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		// An explicit stack: a chain of thousands of bases must not
		// exhaust the goroutine's.
		work := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(work) > 0 {
			f := &work[len(work)-1]
			if f.e < len(r.edges[f.v]) {
				w := r.edges[f.v][f.e]
				f.e++
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					work = append(work, frame{w, 0})
				case onStack[w]:
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			work = work[:len(work)-1]
			if len(work) > 0 {
				p := work[len(work)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			store = append(store, component{})
			c := &store[len(store)-1]
			start := len(members)
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				of[w] = len(comps)
				members = append(members, w)
				self = append(self, r.className(w))
				if w == v {
					break
				}
			}
			c.members = members[start:len(members):len(members)]
			c.self = self[start:len(self):len(self)]
			comps = append(comps, c)
		}
	}
	r.uniteAll(comps, of)
	return comps, of
}

// uniteAll fills every component's sets. A component reaches only
// components before it in comps (Tarjan's order), and those of one depth
// (the longest path from it to a component that reaches no other) only
// shallower ones: each depth is united on every core once the shallower
// ones are final (the standard library's 13,000 classes are a few depths
// deep; a long chain of bases is united on one core, a depth at a time).
func (r *resolver) uniteAll(comps []*component, of []int) {
	depth := make([]int, len(comps))
	var byDepth [][]int
	for ci, c := range comps {
		for _, m := range c.members {
			for _, e := range r.edges[m] {
				if s := of[e]; s != ci {
					depth[ci] = max(depth[ci], depth[s]+1)
				}
			}
		}
		if depth[ci] == len(byDepth) {
			byDepth = append(byDepth, nil)
		}
		byDepth[depth[ci]] = append(byDepth[depth[ci]], ci)
	}
	us := make([]uniter, max(1, runtime.GOMAXPROCS(0)))
	for i := range us {
		us[i].seen = make([]int, len(comps))
	}
	for _, level := range byDepth {
		workers := max(1, min(len(us), len(level)/512))
		if workers == 1 { // a deep, narrow hierarchy: no goroutine per level
			for _, ci := range level {
				us[0].unite(r, comps, of, ci)
			}
			continue
		}
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for i := w; i < len(level); i += workers {
					us[w].unite(r, comps, of, level[i])
				}
			})
		}
		wg.Wait()
	}
}

// uniter is one goroutine's scratch for unite: marks numbered per
// component, and lists of sets reused from one component to the next
// (allocated afresh, they were a third of unite's time on the standard
// library; union keeps none of them).
type uniter struct {
	seen           []int
	surf, nameSets [][]int32
	ambSets        [][]int
}

// unite fills the sets of component self from its members and the
// components they reach, which are all final.
func (u *uniter) unite(r *resolver, comps []*component, of []int, self int) {
	c := comps[self]
	surf, names, amb := u.surf[:0], u.nameSets[:0], u.ambSets[:0]
	for _, m := range c.members {
		surf = append(surf, r.cls[m].own)
		amb = append(amb, r.amb[m])
		for _, e := range r.edges[m] {
			// seen[s] == self+1: component s is already united into c.
			if s := of[e]; s != self && u.seen[s] != self+1 {
				u.seen[s] = self + 1
				d := comps[s]
				surf, names, amb = append(surf, d.surface), append(names, d.names, d.self), append(amb, d.amb)
			}
		}
	}
	slices.Sort(c.self)
	c.self = slices.Compact(c.self)
	c.surface, c.names, c.amb = union(surf), union(names), union(amb)
	u.surf, u.nameSets, u.ambSets = surf, names, amb
}

// worsts fills each component's worst counts, once every component's
// surface is final: a candidate need not be reachable from the class.
func (r *resolver) worsts(comps []*component, of []int) {
	for _, c := range comps {
		c.worst = make([]int, len(c.amb))
		with := map[int]int{} // candidate component -> the count with it
		for i, a := range c.amb {
			for _, k := range r.ambs[a].cands {
				n, ok := with[of[k]]
				if !ok {
					n = len(c.surface) + extra(c.surface, comps[of[k]].surface)
					with[of[k]] = n
				}
				c.worst[i] = max(c.worst[i], n)
			}
		}
	}
}

// className is a class's interned name (interned with the public names:
// the two only ever meet in sets of one kind).
func (r *resolver) className(id int) int32 { return r.cls[id].nameID }

// union merges sorted sets into one. The sets are never written to once
// made, so a union of one non-empty set is that set itself, and of two a
// merge: most classes have one base, and sorting their concatenation was
// most of unite's time on the Python standard library.
func union[T int | int32](sets [][]T) []T {
	n, nonEmpty := 0, 0
	for _, s := range sets {
		if len(s) > 0 {
			n += len(s)
			sets[nonEmpty] = s
			nonEmpty++
		}
	}
	switch sets = sets[:nonEmpty]; nonEmpty {
	case 0:
		return []T{}
	case 1:
		return sets[0]
	case 2:
		return merge(sets[0], sets[1])
	}
	out := make([]T, 0, n)
	for _, s := range sets {
		out = append(out, s...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// merge is the union of the sorted sets a and b.
func merge[T int | int32](a, b []T) []T {
	out := make([]T, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// extra counts the elements of the sorted set b that the sorted set a lacks.
func extra(a, b []int32) int {
	n, i := 0, 0
	for _, x := range b {
		for i < len(a) && a[i] < x {
			i++
		}
		if i == len(a) || a[i] != x {
			n++
		}
	}
	return n
}

// ambiguity is the namespace's record of ambiguous base a.
func (r *resolver) ambiguity(a int) facts.SurfaceAmbiguity {
	x := r.ambs[a]
	cands := make([]string, 0, len(x.cands))
	for _, k := range x.cands {
		cands = append(cands, r.loc(k))
	}
	slices.Sort(cands)
	return facts.SurfaceAmbiguity{Writer: r.cls[x.writer].name, Base: x.base, Candidates: cands}
}

// classes turns the resolved graph into the namespace's classes, those p
// keeps (see Params), and the ambiguous bases they refer to.
func (r *resolver) classes(p Params) ([]facts.SurfaceClass, []facts.SurfaceAmbiguity) {
	comps, of := r.closures()
	r.worsts(comps, of)
	jd := r.judge(p, comps, of)
	keep, nKept := make([]bool, len(r.cls)), 0
	for _, comp := range comps {
		over := len(comp.surface) >= p.Cap || slices.ContainsFunc(comp.worst, func(w int) bool { return w >= p.Cap })
		for _, m := range comp.members {
			keep[m] = over || p.Named[r.cls[m].name]
			nKept += b2i(keep[m])
		}
	}
	// The ambiguous bases are numbered in component order, here; what each
	// listed class says is written on every core afterwards, a component's
	// classes on one (~10 ms of the standard library's).
	ref := map[int]int{} // ambiguous base -> its index in ambs
	ambs := []facts.SurfaceAmbiguity{}
	var listed []int // the components with a class listed
	refs := make([][]facts.SurfaceAmbiguous, len(comps))
	for ci, comp := range comps {
		if !slices.ContainsFunc(comp.members, func(m int) bool { return keep[m] }) {
			continue
		}
		listed = append(listed, ci)
		refs[ci] = make([]facts.SurfaceAmbiguous, 0, len(comp.amb))
		for i, a := range comp.amb {
			k, ok := ref[a]
			if !ok {
				k = len(ambs)
				ref[a] = k
				ambs = append(ambs, r.ambiguity(a))
			}
			refs[ci] = append(refs[ci], facts.SurfaceAmbiguous{Ref: k, Worst: comp.worst[i]})
		}
	}
	out := make([]facts.SurfaceClass, len(r.cls))
	workers := max(1, min(runtime.GOMAXPROCS(0), len(listed)/256))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			src := sourcer{seen: make([]int, len(comps))}
			for i := w; i < len(listed); i += workers {
				ci := listed[i]
				r.list(comps[ci], refs[ci], keep, out, jd, jd.beyond[ci], src.closureFiles(r, comps, of, ci))
			}
		})
	}
	wg.Wait()
	kept := make([]facts.SurfaceClass, 0, nKept)
	for id, c := range out {
		if keep[id] {
			kept = append(kept, c)
		}
	}
	return kept, ambs
}

// list writes out[id] for each member id of comp that keep holds, amb
// being the ambiguous bases of its closure, beyond what lies beyond its
// over-cap bases (judgement.beyond) and files its closure's files
// (sourcer.closureFiles).
func (r *resolver) list(comp *component, amb []facts.SurfaceAmbiguous, keep []bool, out []facts.SurfaceClass, jd judgement, beyond int, files []string) {
	// From: the names of the closure's other classes; a class's own name
	// only when another class of the closure has it too.
	var all []string // sorted by name, not by id
	for _, n := range union([][]int32{comp.names, comp.self}) {
		all = append(all, r.idName[n])
	}
	slices.Sort(all)
	var named map[int32]int // how many members have each name, in a cycle
	if len(comp.members) > 1 {
		named = make(map[int32]int, len(comp.members))
		for _, m := range comp.members {
			named[r.className(m)]++
		}
	}
	for _, id := range comp.members {
		if !keep[id] {
			continue
		}
		c, self := r.cls[id], r.className(id)
		_, reached := slices.BinarySearch(comp.names, self)
		from := all
		if !reached && named[self] <= 1 {
			from = slices.DeleteFunc(slices.Clone(all), func(n string) bool { return n == c.name })
		}
		out[id] = facts.SurfaceClass{Name: c.name, Lang: c.lang, Path: c.path, Line: c.line, Own: len(c.own), Count: len(comp.surface), From: from,
			Breakdown: breakdown(len(c.own), len(comp.surface), from), Ambiguous: amb,
			Exempt: jd.exempt[id], Beyond: beyond, Inherited: jd.inherited[id], Sources: sourcesOf(files, c.path)}
	}
}

// breakdown is SurfaceClass.Breakdown: what a count is made of, in words.
func breakdown(own, count int, from []string) string {
	if len(from) == 0 {
		return "all its own"
	}
	return fmt.Sprintf("%d own, %d more from %s", own, count-own, strings.Join(from, ", "))
}
