package surface

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners/internal/pyscan"
)

// payloadCases are pyFiles the cached form must carry exactly: every .py
// file of the repository's testdata as the scanner reads it, a file that
// does not parse, and nil next to empty lists, empty strings and bytes
// (separators, invalid UTF-8) that a length-prefixed form must not read
// as structure.
func payloadCases(t testing.TB) []pyFile {
	sc := pyscan.NewScanner()
	var out []pyFile
	err := filepath.WalkDir("../../testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".py") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, n := sc.ScanNames(p, src)
		out = append(out, pyFile{f, n})
		return nil
	})
	if err != nil || len(out) < 10 {
		t.Fatalf("testdata: %d files, %v", len(out), err)
	}
	odd := "a:1;-;\x00\xff\n\"\\"
	return append(out,
		pyFile{File: facts.PythonFile{Path: "bad.py", Error: &facts.PythonError{Line: 3, Msg: odd}, Classes: []facts.PythonClass{}},
			Names: pyscan.Names{Imports: []pyscan.RawImport{}, Bases: [][]string{}}},
		pyFile{File: facts.PythonFile{Path: odd, Parsed: true, Classes: []facts.PythonClass{
			{Name: "", Line: 0, Bases: nil, Public: []string{}},
			{Name: odd, Line: 123456789, Bases: []string{"", odd}, Public: nil},
		}}, Names: pyscan.Names{Imports: []pyscan.RawImport{
			{Line: 1, Level: 2, Module: "", From: true, Names: []string{"*"}, Aliases: []string{""}},
			{Line: 9, Module: "a.b", As: "c", Names: nil, Aliases: nil},
		}, Bases: [][]string{nil, {}, {"m.X"}}}},
		pyFile{},
	)
}

// TestPayloadRoundTrip: decodePy gives back exactly what encodePy wrote,
// nil lists as nil, and refuses every truncation of it.
func TestPayloadRoundTrip(t *testing.T) {
	for _, f := range payloadCases(t) {
		s := encodePy(f)
		got, ok := decodePy(s)
		if !ok || !reflect.DeepEqual(got, f) {
			t.Fatalf("%q: decodePy = %+v, %v; want %+v", f.File.Path, got, ok, f)
		}
		for i := range len(s) {
			if _, ok := decodePy(s[:i]); ok {
				t.Fatalf("%q: decodePy took the first %d of %d bytes", f.File.Path, i, len(s))
			}
		}
		if _, ok := decodePy(s + "0;"); ok {
			t.Fatalf("%q: decodePy took trailing text", f.File.Path)
		}
	}
}

// FuzzDecodePy: whatever the text, decodePy does not panic, and a text it
// takes is the one encodePy writes for what it read (one form per file).
func FuzzDecodePy(f *testing.F) {
	for _, c := range payloadCases(f) {
		f.Add(encodePy(c))
	}
	f.Add("1:a;")
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := decodePy(s)
		if ok && encodePy(got) != s {
			t.Fatalf("decodePy took %q, which encodePy writes as %q", s, encodePy(got))
		}
	})
}
