package engine

import (
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/policy"
)

// The expectations of TestClassSurfaceMatchesReference: what refSurface
// says the policy must report, and the policy's violations in that form.

// expect lists the over_cap and ambiguous_base violations the policy must
// report with no baseline, as "path:line rule detail" strings (an ambiguous
// base once per class and writer-and-base, however many of its candidates
// would take the class over).
//
// One finding per root cause: a class over the limit is reported only when
// more than limit of its names lie outside the union of its over-limit
// bases (the classes of its closure, outside its own cycle, over the limit
// and judged, i.e. not in a test file), and each root then says how many
// judged classes are over the limit only through it.
func (r *refSurface) expect(limit int) []string {
	judged := func(k int) bool { return !refTestFile(r.cls[k].path) }
	bases := make([][]int, len(r.cls)) // the over-limit bases of each class over the limit
	beyond := make([]int, len(r.cls))
	for id, s := range r.surface {
		under := map[string]bool{}
		for k := range r.reach[id] {
			if len(s) > limit && !r.reach[k][id] && len(r.surface[k]) > limit && judged(k) {
				bases[id] = append(bases[id], k)
				maps.Copy(under, r.surface[k])
			}
		}
		for n := range s {
			beyond[id] += b2i(!under[n])
		}
	}
	inherited := make([]int, len(r.cls))
	for id, s := range r.surface {
		if len(s) > limit && beyond[id] <= limit && judged(id) {
			for _, k := range bases[id] {
				inherited[k] += b2i(beyond[k] > limit)
			}
		}
	}
	var out []string
	for id, s := range r.surface {
		at := fmt.Sprintf("%s:%d", r.cls[id].path, r.cls[id].line)
		if len(s) > limit {
			if beyond[id] > limit && judged(id) {
				out = append(out, fmt.Sprintf("%s over_cap %d inherited %d", at, len(s), inherited[id]))
			}
			continue
		}
		if !judged(id) {
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
			key := fmt.Sprintf("%s ambiguous_base %s of %s: %d", at, a.base, r.cls[a.writer].name, worst)
			if worst > limit && !seen[fmt.Sprint(a.writer, a.base)] {
				seen[fmt.Sprint(a.writer, a.base)] = true
				out = append(out, key)
			}
		}
	}
	slices.Sort(out)
	return out
}

// refTestFile is a test file as class_surface reads one: under tests/, a
// Python test_*.py, *_test.py or conftest.py, a Go *_test.go.
func refTestFile(p string) bool {
	base := path.Base(p)
	return slices.Contains(strings.Split(path.Dir(p), "/"), "tests") || base == "conftest.py" ||
		strings.HasSuffix(base, "_test.go") || strings.HasSuffix(base, "_test.py") ||
		strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

var (
	inheritedRE  = regexp.MustCompile(`; inherited by (\d+) class`)
	overCapRE    = regexp.MustCompile(`^(\S+:\d+): (?:class|struct) \S+ has (\d+) public members \(max`)
	ambiguousRE  = regexp.MustCompile(`^(\S+:\d+): (?:class|struct) \S+: base (\S+) of (\S+) is ambiguous .* up to (\d+) public members`)
	classSurface = "class_surface"
)

// got turns the policy's violations into expect's form.
func got(t testing.TB, vs []policy.Violation) []string {
	var out []string
	for _, v := range vs {
		switch v.Rule {
		case "over_cap":
			m := overCapRE.FindStringSubmatch(v.Msg)
			if m == nil {
				t.Fatalf("over_cap message not understood: %s", v.Msg)
			}
			n := "0"
			if i := inheritedRE.FindStringSubmatch(v.Msg); i != nil {
				n = i[1]
			}
			out = append(out, fmt.Sprintf("%s over_cap %s inherited %s", m[1], m[2], n))
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
