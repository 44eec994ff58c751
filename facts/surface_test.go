package facts

import (
	"reflect"
	"testing"
)

// TestSurfacePlainMatchesJSON: the direct conversion gives what the JSON
// round trip does, nil lists as null and invalid UTF-8 coerced included.
func TestSurfacePlainMatchesJSON(t *testing.T) {
	for name, s := range map[string]Surface{
		"zero": {},
		"varied": {
			Roots:   []SurfaceRoot{{Root: ".", Whole: true, Files: 3}, {Root: "src\xff/", Files: 0}},
			Exclude: []string{"testdata/**"}, Scanned: 3, Total: 4, Cap: 60,
			Unparsed: []SurfaceError{{Path: "bad.py", Line: 2, Msg: "invalid \xc3 syntax"}},
			Classes: []SurfaceClass{
				{Name: "A", Lang: "python", Path: "a.py", Line: 1, Own: 2, Count: 70, From: []string{"B"}, Ambiguous: []SurfaceAmbiguous{{Ref: 0, Worst: 71}}},
				{Name: "S", Lang: "go", Path: "s.go", Line: 1 << 40}, // nil lists encode as null
			},
			AmbiguousBases: []SurfaceAmbiguity{{Writer: "A", Base: "m.H", Candidates: []string{"h1.py:1", "h2.py:1"}}, {Writer: "Z"}},
		},
	} {
		if got, want := any(s.Plain()), roundTrip(t, s); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\nPlain()         %#v\nJSON round trip %#v", name, got, want)
		}
	}
}

var _ Plainer = Surface{} // ToGeneric takes the fast path
