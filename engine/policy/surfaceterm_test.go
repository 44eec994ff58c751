package policy

import (
	"fmt"
	"reflect"
	"runtime"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tausik/tausik/facts"
)

// fillEvery sets every field of the value v points to, recursively: strings
// to distinct text, numbers to distinct values, bools to true, each slice to
// two elements. A field added to facts.Surface that surfaceTerm leaves out
// then differs from the plain form.
func fillEvery(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d é", *n))
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fillEvery(v.Index(i), n)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fillEvery(v.Field(i), n)
		}
	default:
		panic(fmt.Sprintf("fillEvery: %s", v.Kind()))
	}
}

func genericTerm(t *testing.T, ns facts.Namespace) *ast.Term {
	t.Helper()
	g, err := ns.Generic()
	if err != nil {
		t.Fatal(err)
	}
	v, err := ast.InterfaceToValue(g)
	if err != nil {
		t.Fatal(err)
	}
	return ast.NewTerm(v)
}

func TestSurfaceTermMatchesGeneric(t *testing.T) {
	var full facts.Surface
	n := 0
	fillEvery(reflect.ValueOf(&full).Elem(), &n)
	withNils := full
	withNils.Classes = append([]facts.SurfaceClass{}, full.Classes...)
	withNils.Classes[0].From, withNils.Classes[0].Ambiguous = nil, nil
	withNils.Classes[1].Ambiguous = []facts.SurfaceAmbiguous{}
	withNils.Roots, withNils.Unparsed, withNils.Exclude = nil, nil, nil
	// many: enough classes and ambiguous bases to be built on every core,
	// with cores set rather than the machine's (one CPU would build them
	// in one run).
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	many := full
	many.Classes, many.AmbiguousBases = nil, nil
	for i := range 3000 {
		c := full.Classes[i%len(full.Classes)]
		c.Path, c.Line = fmt.Sprintf("p%d.py", i/3), i
		many.Classes = append(many.Classes, c)
		a := full.AmbiguousBases[0]
		a.Writer = fmt.Sprintf("W%d", i%7)
		many.AmbiguousBases = append(many.AmbiguousBases, a)
	}
	for name, ns := range map[string]facts.Namespace{
		"every field":  facts.OK(full),
		"many":         facts.OK(many),
		"nil lists":    facts.OK(withNils),
		"empty":        facts.OK(facts.Surface{}),
		"error":        {Status: facts.StatusError, Reason: "could not scan", Data: facts.Surface{}},
		"ok, reasoned": {Status: facts.StatusOK, Reason: "why", Data: full},
		"unavailable":  {Status: facts.StatusUnavailable, Data: facts.Surface{}},
	} {
		got, ok := surfaceTerm(ns)
		if !ok {
			t.Errorf("%s: surfaceTerm refused it", name)
			continue
		}
		if want := genericTerm(t, ns); !got.Equal(want) {
			t.Errorf("%s: surfaceTerm\n got %v\nwant %v", name, got, want)
		}
	}
}

func TestSurfaceTermLeavesTheRestToGeneric(t *testing.T) {
	bad := facts.Surface{Classes: []facts.SurfaceClass{{Name: "C\xff", Lang: "python"}}}
	for name, ns := range map[string]facts.Namespace{
		"not UTF-8":        facts.OK(bad),
		"reason not UTF-8": {Status: facts.StatusError, Reason: "\xfe", Data: facts.Surface{}},
		"other namespace":  facts.OK(facts.Go{Files: []facts.GoFile{}}),
		"no data":          {Status: facts.StatusUnavailable},
	} {
		if _, ok := surfaceTerm(ns); ok {
			t.Errorf("%s: surfaceTerm took it", name)
		}
	}
	// What the input then shows is the plain form's (U+FFFD for the byte).
	doc := facts.NewDocument()
	doc.Set("surface", facts.OK(bad))
	got, err := NewDocumentInput(doc, nil).facts.term("surface")
	if err != nil {
		t.Fatal(err)
	}
	if want := genericTerm(t, facts.OK(bad)); !got.Equal(want) {
		t.Errorf("input term\n got %v\nwant %v", got, want)
	}
}
