package policy

import (
	"runtime"
	"sync"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tausik/tausik/facts"
)

// surfaceTerm builds the "surface" namespace's Rego term from its fields,
// the value ast.InterfaceToValue gives for ns.Generic() without building
// the plain form first (~20 ms of an evaluation of class_surface on the
// standard library, 3,700 classes). ok is false for any other namespace and
// for one holding a string that is not UTF-8 (the plain form replaces such
// bytes in the data's strings; its reason it keeps raw, refused here only
// out of caution): the caller converts those the general way.
// TestSurfaceTermMatchesGeneric holds the two to each other with every
// field set.
func surfaceTerm(ns facts.Namespace) (t *ast.Term, ok bool) {
	s, isSurface := ns.Data.(facts.Surface)
	if !isSurface || !surfaceUTF8(s) || !utf8.ValidString(ns.Reason) {
		return nil, false
	}
	b := termBuilder{strs: map[string]*ast.Term{}}
	roots := make([]*ast.Term, len(s.Roots))
	for i, r := range s.Roots {
		roots[i] = ast.ObjectTerm(b.item("root", b.str(r.Root)), b.item("whole", ast.InternedTerm(r.Whole)), b.item("files", ast.InternedTerm(r.Files)))
	}
	unparsed := make([]*ast.Term, len(s.Unparsed))
	for i, u := range s.Unparsed {
		unparsed[i] = ast.ObjectTerm(b.item("path", b.str(u.Path)), b.item("line", ast.InternedTerm(u.Line)), b.item("msg", b.str(u.Msg)))
	}
	// The classes and the ambiguous bases are built on every core, the
	// classes in runs of consecutive ones (a run shares its paths' terms):
	// ~15 ms of the standard library's, before the policy can start.
	classes := make([]*ast.Term, len(s.Classes))
	ambs := make([]*ast.Term, len(s.AmbiguousBases))
	var wg sync.WaitGroup
	wg.Go(func() {
		b := termBuilder{strs: map[string]*ast.Term{}}
		for i, a := range s.AmbiguousBases {
			ambs[i] = ast.ObjectTerm(b.item("writer", b.str(a.Writer)), b.item("base", b.str(a.Base)), b.item("candidates", b.list(a.Candidates)))
		}
	})
	runs := max(1, min(runtime.GOMAXPROCS(0), len(s.Classes)/500))
	for w := range runs {
		wg.Go(func() {
			b := termBuilder{strs: map[string]*ast.Term{}}
			for i := w * len(classes) / runs; i < (w+1)*len(classes)/runs; i++ {
				classes[i] = b.class(s.Classes[i])
			}
		})
	}
	wg.Wait()
	items := [][2]*ast.Term{
		b.item("roots", arrayOrNull(s.Roots == nil, roots)), b.item("exclude", b.list(s.Exclude)),
		b.item("scanned", ast.InternedTerm(s.Scanned)), b.item("total", ast.InternedTerm(s.Total)), b.item("cap", ast.InternedTerm(s.Cap)),
		b.item("unparsed", arrayOrNull(s.Unparsed == nil, unparsed)), b.item("classes", arrayOrNull(s.Classes == nil, classes)),
		b.item("ambiguous_bases", arrayOrNull(s.AmbiguousBases == nil, ambs)),
		b.item("status", b.str(string(ns.Status))),
	}
	if ns.Reason != "" || ns.Status != facts.StatusOK {
		items = append(items, b.item("reason", b.str(ns.Reason)))
	}
	return ast.ObjectTerm(items...), true
}

// class is a SurfaceClass's term.
func (b termBuilder) class(c facts.SurfaceClass) *ast.Term {
	amb := ast.NullTerm()
	if c.Ambiguous != nil {
		list := make([]*ast.Term, len(c.Ambiguous))
		for j, a := range c.Ambiguous {
			list[j] = ast.ObjectTerm(b.item("ref", ast.InternedTerm(a.Ref)), b.item("worst", ast.InternedTerm(a.Worst)))
		}
		amb = ast.ArrayTerm(list...)
	}
	return ast.ObjectTerm(b.item("name", b.str(c.Name)), b.item("lang", b.str(c.Lang)), b.item("path", b.str(c.Path)),
		b.item("line", ast.InternedTerm(c.Line)), b.item("own", ast.InternedTerm(c.Own)), b.item("count", ast.InternedTerm(c.Count)),
		b.item("from", b.list(c.From)), b.item("breakdown", b.str(c.Breakdown)), b.item("ambiguous", amb),
		b.item("exempt", b.str(c.Exempt)), b.item("beyond", ast.InternedTerm(c.Beyond)), b.item("inherited", ast.InternedTerm(c.Inherited)),
		b.item("sources", b.list(c.Sources)))
}

// termBuilder shares one term per distinct string: paths, languages and
// breakdowns repeat across thousands of classes.
type termBuilder struct{ strs map[string]*ast.Term }

func (b termBuilder) str(s string) *ast.Term {
	t := b.strs[s]
	if t == nil {
		t = ast.StringTerm(s)
		b.strs[s] = t
	}
	return t
}

func (b termBuilder) item(k string, v *ast.Term) [2]*ast.Term { return [2]*ast.Term{surfaceKeys[k], v} }

// surfaceKeys are the namespace's keys as terms, made once.
var surfaceKeys = func() map[string]*ast.Term {
	m := map[string]*ast.Term{}
	for _, k := range []string{"root", "whole", "files", "path", "line", "msg", "ref", "worst", "name", "lang", "own", "count",
		"from", "breakdown", "ambiguous", "writer", "base", "candidates", "roots", "exclude", "scanned", "total", "cap",
		"unparsed", "classes", "ambiguous_bases", "status", "reason", "exempt", "beyond", "inherited", "sources"} {
		m[k] = ast.StringTerm(k)
	}
	return m
}()

// list is a list of strings, null for a nil list (as the plain form has it).
func (b termBuilder) list(list []string) *ast.Term {
	if list == nil {
		return ast.NullTerm()
	}
	out := make([]*ast.Term, len(list))
	for i, s := range list {
		out[i] = b.str(s)
	}
	return ast.ArrayTerm(out...)
}

func arrayOrNull(isNil bool, list []*ast.Term) *ast.Term {
	if isNil {
		return ast.NullTerm()
	}
	return ast.ArrayTerm(list...)
}

// surfaceUTF8 reports whether every string of s is valid UTF-8.
func surfaceUTF8(s facts.Surface) bool {
	valid := func(list ...string) bool {
		for _, x := range list {
			if !utf8.ValidString(x) {
				return false
			}
		}
		return true
	}
	if !valid(s.Exclude...) {
		return false
	}
	for _, r := range s.Roots {
		if !valid(r.Root) {
			return false
		}
	}
	for _, u := range s.Unparsed {
		if !valid(u.Path, u.Msg) {
			return false
		}
	}
	for _, c := range s.Classes {
		if !valid(c.Name, c.Lang, c.Path, c.Breakdown, c.Exempt) || !valid(c.From...) || !valid(c.Sources...) {
			return false
		}
	}
	for _, a := range s.AmbiguousBases {
		if !valid(a.Writer, a.Base) || !valid(a.Candidates...) {
			return false
		}
	}
	return true
}
