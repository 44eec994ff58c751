package facts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// jsonCanonical is the reference: encoding/json with HTML escaping off.
func jsonCanonical(t testing.TB, v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func TestCanonicalMatchesEncodingJSON(t *testing.T) {
	values := []any{
		nil, true, false, int64(0), int64(-42), int64(math.MaxInt64), 0.5, -1.25, 1e21, 1e-7, 123456789.0, 3.0e-5,
		"plain", "quote\" back\\slash", "ctl\x00\x01\x1f\t\n\r\b\f", "<html> & ü ß 日本", "bad\xffutf8", "line\u2028sep\u2029",
		[]any{}, map[string]any{}, []any{int64(1), "a", nil},
		map[string]any{"b": int64(1), "a": []any{map[string]any{"z": "y", "é": 1.5}}, "": false},
	}
	for _, v := range values {
		got, err := Canonical(v)
		if err != nil {
			t.Fatalf("%#v: %v", v, err)
		}
		if want := jsonCanonical(t, v); !bytes.Equal(got, want) {
			t.Errorf("%#v:\n got %s\nwant %s", v, got, want)
		}
	}
}

// FuzzCanonical holds the fast encoder to encoding/json on arbitrary JSON.
func FuzzCanonical(f *testing.F) {
	f.Add([]byte(`{"a":[1,2.5,"x\u2028"],"b":{"c":null,"d":true}}`))
	f.Add([]byte(`"\u0000<>&\ud800"`))
	f.Add([]byte(`[1e300, -0.0, 1e-9, 12345678901234567890]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := DecodeGeneric(b)
		if err != nil {
			return
		}
		got, ok := appendPlain(nil, v)
		if !ok {
			return
		}
		if want := jsonCanonical(t, v); !bytes.Equal(got, want) {
			t.Fatalf("input %q:\n got %s\nwant %s", b, got, want)
		}
	})
}

func TestFilesPlainMatchesJSON(t *testing.T) {
	f := Files{Files: []File{
		{Path: "a/b.py", Name: "b.py", Ext: ".py", Exists: true, Kind: "file", Size: 10, Lines: 2, SHA256: "ab"},
		{Path: "gone", Name: "gone", Kind: "missing"},
		{Path: "d/bad\xff\xfe.t\xc3", Name: "bad\xff\xfe.t\xc3", Ext: ".t\xc3", Exists: true, Kind: "file"}, // a name that is not UTF-8
	}}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	want, err := DecodeGeneric(b)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Plain(); !reflect.DeepEqual(got, want) {
		t.Errorf("Plain() = %v\nJSON round trip = %v", got, want)
	}
}

func TestParse(t *testing.T) {
	doc, err := Parse([]byte(`{"schema": "tausik-facts/v1", "files": {"status": "ok", "files": []}, "git": {"status": "unavailable", "reason": "not a repo"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if names := strings.Join(doc.Names(), ","); names != "files,git" {
		t.Errorf("names = %s", names)
	}
	for in, want := range map[string]string{
		`{"files": {"status": "maybe"}}`:       "status must be ok, unavailable or error",
		`{"files": {"status": "error"}}`:       "needs a reason",
		`{"files": 3}`:                         "must be an object",
		`{"schema": "other/v9"}`:               "is not tausik-facts/v1",
		"{\n\"files\": {\"status\": \"ok\",}}": "line 2",
		`[1]`:                                  "must be a JSON object",
	} {
		if _, err := Parse([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%s) = %v, want an error containing %q", in, err, want)
		}
	}
}

func TestDocumentDigestStable(t *testing.T) {
	a, b := NewDocument(), NewDocument()
	a.Set("x", OK(map[string]any{"k": 1, "j": "v"}))
	a.Set("y", Unavailable("nope"))
	b.Set("y", Unavailable("nope"))
	b.Set("x", OK(map[string]any{"j": "v", "k": 1}))
	da, _, _ := a.DigestParts()
	db, _, _ := b.DigestParts()
	if da != db || !strings.HasPrefix(da, "sha256:") {
		t.Errorf("digests %s %s", da, db)
	}
	b.Set("y", Unavailable("other"))
	if dc, _, _ := b.DigestParts(); dc == da {
		t.Error("a changed reason did not change the digest")
	}
}

// directSamples are namespace data of every CanonicalAppender type, with the
// shapes their encoders must get exactly right: nil and empty lists, errors,
// optional keys, names that are not UTF-8 or need escaping.
func directSamples() []CanonicalAppender {
	return []CanonicalAppender{
		Files{}, Files{Files: []File{}},
		Files{Files: []File{
			{Path: "a.go", Name: "a.go", Ext: ".go", Kind: "file", Exists: true, Size: 3, Lines: 1, SHA256: "ab"},
			{Path: "bad\xffname \"q\" <&>", Name: "bad\xffname", Kind: "missing"},
			{Path: "bin", Name: "bin", Kind: "file", Exists: true, Size: 1 << 40, Binary: true},
		}},
		Python{}, Python{Files: []PythonFile{}},
		Python{Files: []PythonFile{
			{Path: "a.py", Parsed: true, Classes: []PythonClass{{Name: "A", Line: 1, Bases: []string{"B", "m\xfe"}, Public: []string{}}, {Name: "C", Line: 9}}},
			{Path: "b.py", Error: &PythonError{Line: 2, Msg: "invalid \"syntax\"\n\t\u2028"}, Classes: []PythonClass{}},
			{Path: "c.py", Parsed: true},
		}},
		Go{}, Go{Files: []GoFile{}},
		Go{Files: []GoFile{
			{Path: "a.go", Package: "a", ImportPath: "example.test/a\xff", Parsed: true, Imports: map[string]string{"u": "example.test/util", "b\xff": "x\xfe\"", "b\xfe": "y", "a": ""}, Structs: []GoStruct{{Name: "T", Line: 3, Fields: []string{"X"}, Bases: []string{}}, {Name: "U", Line: 5}},
				Methods: []GoMethod{{Recv: "T", Name: "M", Line: 7}}},
			{Path: "b.go", Error: &GoError{Line: 1, Msg: "expected 'package'"}, Imports: map[string]string{}, Structs: []GoStruct{}, Methods: []GoMethod{}},
			{Path: "c\xff.go"},
		}},
	}
}

// TestAppendCanonicalMatchesGeneric: each direct encoder writes exactly the
// canonical encoding of the data's plain form.
func TestAppendCanonicalMatchesGeneric(t *testing.T) {
	for i, data := range directSamples() {
		g, err := ToGeneric(data)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Canonical(g)
		if err != nil {
			t.Fatal(err)
		}
		if got := data.AppendCanonical([]byte("prefix")); string(got) != "prefix"+string(want) {
			t.Errorf("sample %d (%T):\n got %s\nwant %s", i, data, got[6:], want)
		}
	}
}

// canonicalDigest is the reference DigestParts is held to: the digest of the
// canonical encoding of a plain value.
func canonicalDigest(t *testing.T, v any) string {
	t.Helper()
	b, err := Canonical(v)
	if err != nil {
		t.Fatal(err)
	}
	return DigestBytes(b)
}

// TestDigestPartsMatchesDigest: the whole-document digest DigestParts
// assembles from its parts is the plain document's, and each part is its
// top-level value's own digest, so a changed namespace changes only its part.
func TestDigestPartsMatchesDigest(t *testing.T) {
	doc := NewDocument()
	for i, data := range directSamples() {
		doc.Set(fmt.Sprintf("ns%02d", i), OK(data))
	}
	doc.Set("pyerr", Error("could not scan"))
	doc.Set("git", Unavailable("not a git repository"))
	doc.Set("x", OK(map[string]any{"quote\"": "<&>", "n": 1.5}))
	whole, parts, err := doc.DigestParts()
	if err != nil {
		t.Fatal(err)
	}
	plain, err := doc.Generic()
	if err != nil {
		t.Fatal(err)
	}
	if want := canonicalDigest(t, plain); whole != want {
		t.Errorf("whole digest %s, the plain document's is %s", whole, want)
	}
	if len(parts) != len(plain) {
		t.Fatalf("parts for %d keys, document has %d", len(parts), len(plain))
	}
	for k, v := range plain {
		if want := canonicalDigest(t, v); parts[k] != want {
			t.Errorf("part %s = %s, want %s", k, parts[k], want)
		}
	}
	doc.Set("git", Error("git failed"))
	_, parts2, _ := doc.DigestParts()
	if parts2["git"] == parts["git"] || parts2["ns02"] != parts["ns02"] {
		t.Errorf("changing git changed parts %v -> %v", parts, parts2)
	}
}

// TestToGenericOddShapes: shapes no namespace type has yet convert as a
// JSON round trip does: a field's pointer-receiver MarshalJSON, a name two
// fields claim, tag names encoding/json refuses.
func TestToGenericOddShapes(t *testing.T) {
	type twice struct {
		X string
		Y string `json:"X"`
		C int    `json:"ok"`
	}
	type tags struct {
		A string `json:"ä"`
		B string `json:"a\u00a0b"`
		C string `json:"a,omitempty"`
	}
	type holder struct {
		M ptrMarshal `json:"m"`
	}
	for name, v := range map[string]any{
		"a name used twice":    twice{"1", "2", 3},
		"tag names":            tags{"a", "b", ""},
		"pointer MarshalJSON":  &holder{},
		"value with one again": holder{},
	} {
		got, err := ToGeneric(v)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		want, err := DecodeGeneric(b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %#v, a round trip gives %#v", name, got, want)
		}
	}
}

// ptrMarshal encodes itself only through a pointer.
type ptrMarshal struct{ N int }

func (p *ptrMarshal) MarshalJSON() ([]byte, error) { return []byte(`"custom"`), nil }
