package surface

import (
	"path"
	"slices"
	"strings"

	"github.com/tausik/tausik/runners/internal/pyscan"
)

// Why a class is not judged by default (facts.SurfaceClass.Exempt), in the
// order one is chosen when several hold.
const (
	ExemptEnum         = "enum"
	ExemptProtocol     = "protocol"
	ExemptTypeChecking = "type_checking"
	ExemptTest         = "test"
)

// enumBases are the standard library's enum classes: a class with one of
// them among its bases, or a base that is an enum, is an enum.
var enumBases = []string{"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum"}

// testFile reports whether a repo-relative path is a test file: under a
// directory named tests, a Python test_*.py, *_test.py or conftest.py, or
// a Go *_test.go.
func testFile(p string) bool {
	base := path.Base(p)
	return strings.HasPrefix(p, "tests/") || strings.Contains(p, "/tests/") ||
		base == "conftest.py" || strings.HasSuffix(base, "_test.go") ||
		strings.HasSuffix(base, ".py") && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py"))
}

// judgement is what decides which classes a finding belongs to: why each
// class is not judged, and for each component over the cap what lies beyond
// its over-cap bases and how many classes are over only through it.
type judgement struct {
	exempt    []string // per class: "" or one of the Exempt constants
	beyond    []int    // per component: see facts.SurfaceClass.Beyond
	inherited []int    // per class: see facts.SurfaceClass.Inherited
}

// judge computes the judgement of the resolved classes once comps (in
// Tarjan's order: a component after every one it reaches) are united.
//
// A component is an enum when a member writes an enum base by name or
// reaches an enum component. A base counts as a root cause when it is
// over the cap (its surface has more than p.Cap names) and one of its
// members is judged. For a component over the cap, beyond is its surface
// minus the union of the surfaces of every root cause it reaches (outside
// itself: a cycle's members are never each other's bases here); a class is
// over the cap only through its bases when beyond is within the cap, and
// it is then counted into each root cause it reaches whose own beyond is
// over the cap. Components within the cap reach only components within it
// (surfaces only grow along bases), so they take no work.
func (r *resolver) judge(p Params, comps []*component, of []int) judgement {
	j := judgement{exempt: make([]string, len(r.cls)), beyond: make([]int, len(comps)), inherited: make([]int, len(r.cls))}
	root := r.markExempt(p, comps, r.enumComponents(comps, of), &j)
	reaches, causes := r.rootCauses(p, comps, of, root, &j)
	for ci, c := range comps {
		if j.beyond[ci] > p.Cap || !reaches[ci] {
			continue
		}
		n := 0
		for _, m := range c.members {
			n += b2i(j.judged(p, m))
		}
		for _, x := range causes[ci] {
			for _, m := range comps[x].members {
				if j.judged(p, m) {
					j.inherited[m] += n
				}
			}
		}
	}
	return j
}

// judged reports whether class id is judged: not exempt, or a test class
// when p includes tests.
func (j *judgement) judged(p Params, id int) bool {
	return j.exempt[id] == "" || j.exempt[id] == ExemptTest && p.IncludeTests
}

// enumComponents marks the components that are Python enums: a member with
// an enum base, or a base component that is one.
func (r *resolver) enumComponents(comps []*component, of []int) []bool {
	enum := make([]bool, len(comps))
	for ci, c := range comps {
		for _, m := range c.members {
			k := &r.cls[m]
			enum[ci] = enum[ci] || k.lang == LangPython && slices.ContainsFunc(k.bases, func(b string) bool { return slices.Contains(enumBases, b) })
			for _, e := range r.edges[m] {
				enum[ci] = enum[ci] || enum[of[e]]
			}
		}
	}
	return enum
}

// markExempt records each class's exemption in j and returns the roots:
// the components over the cap with a judged member.
func (r *resolver) markExempt(p Params, comps []*component, enum []bool, j *judgement) []bool {
	root := make([]bool, len(comps))
	for ci, c := range comps {
		for _, m := range c.members {
			k := r.cls[m]
			switch {
			case enum[ci]:
				j.exempt[m] = ExemptEnum
			case k.flags&pyscan.Protocol != 0:
				j.exempt[m] = ExemptProtocol
			case k.flags&pyscan.TypeChecking != 0:
				j.exempt[m] = ExemptTypeChecking
			case k.test:
				j.exempt[m] = ExemptTest
			}
			root[ci] = root[ci] || len(c.surface) > p.Cap && j.judged(p, m)
		}
	}
	return root
}

// rootCauses works out, per component over the cap, whether it reaches a
// root cause, the union of the surfaces of those it reaches (cover), and
// those whose own beyond is over the cap (causes); it sets j.beyond. A
// root's surface holds every surface below it (surfaces only grow along
// bases), so the direct over-cap bases' covers are enough, and a deep chain
// costs a union per link, not one over the whole chain.
func (r *resolver) rootCauses(p Params, comps []*component, of []int, root []bool, j *judgement) (reaches []bool, causes [][]int) {
	reaches = make([]bool, len(comps))
	cover := make([][]int32, len(comps)) // kept for components that are not roots
	causes = make([][]int, len(comps))
	base, cause := make([]int, len(comps)), make([]int, len(comps)) // dedupe marks, ci+1
	var sets [][]int32
	for ci, c := range comps {
		j.beyond[ci] = len(c.surface)
		if len(c.surface) <= p.Cap {
			continue
		}
		sets = sets[:0]
		var cs []int
		addCause := func(x int) {
			if cause[x] != ci+1 {
				cause[x] = ci + 1
				cs = append(cs, x)
			}
		}
		for _, m := range c.members {
			for _, e := range r.edges[m] {
				s := of[e]
				if s == ci || len(comps[s].surface) <= p.Cap || base[s] == ci+1 {
					continue
				}
				base[s] = ci + 1
				switch {
				case root[s]:
					sets = append(sets, comps[s].surface)
				case reaches[s]:
					sets = append(sets, cover[s])
				default:
					continue
				}
				reaches[ci] = true
				for _, x := range causes[s] {
					addCause(x)
				}
				if root[s] && j.beyond[s] > p.Cap {
					addCause(s)
				}
			}
		}
		if !reaches[ci] {
			continue
		}
		u := union(sets)
		if !root[ci] {
			cover[ci] = u
		}
		j.beyond[ci] = len(c.surface) - len(u)
		causes[ci] = cs
	}
	return reaches, causes
}
