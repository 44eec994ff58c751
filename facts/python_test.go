package facts

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// roundTrip is the reference Plain must equal: ToGeneric's JSON round trip.
func roundTrip(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	g, err := DecodeGeneric(b)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestPythonPlainMatchesJSON(t *testing.T) {
	for name, p := range map[string]Python{
		"nil files":   {},
		"empty files": {Files: []PythonFile{}},
		"varied": {Files: []PythonFile{
			{Path: "a/b.py", Parsed: true, Classes: []PythonClass{
				{Name: "Outer", Line: 1, Bases: []string{"Base", "Mixin"}, Public: []string{"run", "x"}},
				{Name: "Inner", Line: 3, Bases: []string{}, Public: []string{}}, // nested: a class of its own
				{Name: "Bare", Line: 9}, // nil lists encode as null
			}},
			{Path: "broken.py", Error: &PythonError{Line: 3, Msg: "'(' was never closed"}, Classes: []PythonClass{}},
			{Path: "empty.py", Parsed: true, Classes: []PythonClass{}},
			{Path: "nil_classes.py", Parsed: true},
			{Path: "odd\xff\xfe.py", Error: &PythonError{Line: 1, Msg: "bad \xc3 byte, \u2028 <&> \"q\" \\"}},
			{Path: "big.py", Parsed: true, Classes: []PythonClass{{Name: "Ünïcode", Line: 1 << 40, Bases: []string{"\ufffd"}, Public: []string{""}}}},
		}},
	} {
		if got, want := any(p.Plain()), roundTrip(t, p); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\nPlain()         %#v\nJSON round trip %#v", name, got, want)
		}
	}
}

var _ Plainer = Python{} // ToGeneric takes the fast path

// benchPython is a project's python namespace: 600 modules of three classes.
func benchPython() Python {
	var p Python
	for i := range 600 {
		f := PythonFile{Path: fmt.Sprintf("pkg%02d/mod%04d.py", i%24, i), Parsed: true, Classes: []PythonClass{}}
		for c := range 3 {
			f.Classes = append(f.Classes, PythonClass{Name: fmt.Sprintf("Widget%d%d", i, c), Line: 4 + 18*c,
				Bases: []string{"Base"}, Public: []string{"method_0", "method_1", "method_2", "method_3", "size"}})
		}
		p.Files = append(p.Files, f)
	}
	return p
}

// BenchmarkPythonGeneric converts 1,800 classes to plain values: through
// JSON (as ToGeneric did before Python implemented Plainer) and by Plain.
func BenchmarkPythonGeneric(b *testing.B) {
	p := benchPython()
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			roundTrip(b, p)
		}
	})
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ToGeneric(p); err != nil {
				b.Fatal(err)
			}
		}
	})
}
