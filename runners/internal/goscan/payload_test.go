package goscan

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/tausik/tausik/facts"
)

// TestQuickDecodeReadsEveryPayload: the payload of every GOROOT file (with
// its error messages, escapes and generics) reads back through quickDecode,
// without encoding/json, as exactly the facts it was written from.
func TestQuickDecodeReadsEveryPayload(t *testing.T) {
	paths, srcs := gorootSources(t)
	extra := facts.GoFile{Path: "a<b>&\"c\\\".go", Package: "p", Parsed: false, Error: &facts.GoError{Line: 2, Msg: "expected ';', found \"\\t\" \u00e9"},
		Imports: map[string]string{}, Structs: []facts.GoStruct{}, Methods: []facts.GoMethod{}}
	all := []facts.GoFile{extra}
	for i, p := range paths {
		all = append(all, Scan(p, srcs[i]))
	}
	for _, f := range all {
		payload, ok := encodeFacts(f)
		if !ok {
			continue
		}
		got, ok := quickDecode(payload)
		if !ok || !reflect.DeepEqual(got, f) {
			t.Fatalf("%s: quickDecode = %+v, %v; want %+v", f.Path, got, ok, f)
		}
	}
}

// FuzzQuickDecode: whatever the text, a payload quickDecode takes is one
// encoding/json reads strictly as the same facts.
func FuzzQuickDecode(f *testing.F) {
	for _, src := range append(fuzzSeeds, fastSeeds...) {
		if payload, ok := encodeFacts(Scan("a.go", []byte(src))); ok {
			f.Add(payload)
		}
	}
	f.Add(`{"path":"a\"b","package":"","import_path":"","parsed":false,"error":{"line":1,"msg":"x\\y"},"imports":{"a":"b","a":"c"},"structs":[],"methods":[]}`)
	f.Fuzz(func(t *testing.T, payload string) {
		got, ok := quickDecode(payload)
		if !ok {
			return
		}
		var want facts.GoFile
		dec := json.NewDecoder(bytes.NewReader([]byte(payload)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&want); err != nil || dec.More() {
			t.Fatalf("quickDecode took %q, which encoding/json refuses: %v", payload, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: quickDecode %+v, encoding/json %+v", payload, got, want)
		}
	})
}
