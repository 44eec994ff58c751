package facts

import (
	"fmt"
	"reflect"
	"testing"
)

// TestSurfaceAppendMatchesGeneric: the surface namespace's direct encoder
// writes exactly the canonical encoding of its plain form, whatever its
// status and reason, for the shapes of TestSurfacePlainMatchesJSON and for a
// value with every field set: a field added to Surface and its Plain but
// not to the encoder would leave it out of the digest, and a verdict would
// be reused across a change of it.
func TestSurfaceAppendMatchesGeneric(t *testing.T) {
	var full Surface
	n := 0
	fill(reflect.ValueOf(&full).Elem(), &n)
	samples := []Surface{{}, full, {
		Roots:   []SurfaceRoot{{Root: ".", Whole: true, Files: 3}, {Root: "src\xff/", Files: 0}},
		Exclude: []string{"testdata/**"}, Scanned: 3, Total: 4, Cap: 60,
		Unparsed: []SurfaceError{{Path: "bad.py", Line: 2, Msg: "invalid \xc3 \"syntax\"\n"}},
		Classes: []SurfaceClass{
			{Name: "A", Lang: "python", Path: "a.py", Line: 1, Own: 2, Count: 70, From: []string{"B"}, Breakdown: "2 own, 68 more from B", Ambiguous: []SurfaceAmbiguous{{Ref: 0, Worst: 71}}},
			{Name: "S", Lang: "go", Path: "s.go", Line: 1 << 40, From: []string{}, Ambiguous: []SurfaceAmbiguous{}},
		},
		AmbiguousBases: []SurfaceAmbiguity{{Writer: "A", Base: "m.H", Candidates: []string{"h1.py:1", "h2.py:1"}}, {Writer: "Z"}},
	}}
	for i, s := range samples {
		for _, ns := range []Namespace{OK(s), {Status: StatusOK, Reason: "partly", Data: s}, {Status: StatusError, Data: s}, {Status: StatusUnavailable, Reason: "no <tool>", Data: s}} {
			want := canonicalOfPlain(t, ns)
			got, err := ns.appendCanonical([]byte("prefix"))
			if err != nil || string(got) != "prefix"+string(want) {
				t.Errorf("sample %d, status %s reason %q:\n got %s\nwant %s", i, ns.Status, ns.Reason, got, want)
			}
		}
	}
}

// fill sets every field of v, recursively, to a value of its own: strings
// (not UTF-8, to be coerced), numbers, true, and lists of two.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d\xff\"", *n))
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), n)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), n)
		}
	default:
		panic("fill: no value for " + v.Type().String())
	}
}

// canonicalOfPlain is ns's canonical encoding through its plain form, what
// appendCanonical must write.
func canonicalOfPlain(t *testing.T, ns Namespace) []byte {
	t.Helper()
	g, err := ns.Generic()
	if err != nil {
		t.Fatal(err)
	}
	want, err := Canonical(g)
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// A reason that is not UTF-8 is written as Canonical writes it, so the
// digest is the sha256 of the namespace's canonical JSON for it too.
func TestSurfaceReasonNotUTF8(t *testing.T) {
	ns := Namespace{Status: StatusError, Reason: "scan a\xff.py: denied", Data: Surface{}}
	want := canonicalOfPlain(t, ns)
	got, err := ns.appendCanonical(nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}
