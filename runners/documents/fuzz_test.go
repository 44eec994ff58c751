package documents

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/tausik/tausik/facts"
)

// FuzzParse feeds every reader arbitrary bytes: none may panic or hang, an
// error's line lies within the file, and what parses survives the cache's
// encoding with its values and types.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(FormatOf(p), b)
		}
	}
	f.Add(facts.FormatYAML, []byte("a: &a [*a]\n"))
	f.Add(facts.FormatYAML, []byte("a: &a\n  b: *a\n"))
	f.Add(facts.FormatTOML, []byte("x = nan\ny = -inf\n"))
	f.Fuzz(func(t *testing.T, format string, src []byte) {
		if FormatOf("x."+format) == "" && format != facts.FormatEnv {
			format = facts.FormatYAML
		}
		docs, perr := Parse(format, src)
		if perr != nil {
			if perr.Line < 0 || perr.Line > bytes.Count(src, []byte{'\n'})+1 {
				t.Fatalf("error line %d outside a %d-line file: %s", perr.Line, bytes.Count(src, []byte{'\n'})+1, perr.Msg)
			}
			return
		}
		path := "x." + format
		if format == facts.FormatEnv {
			path = ".env"
		}
		f := facts.DocumentFile{Path: path, Format: FormatOf(path), Parsed: true, Docs: docs}
		payload, ok := encode(f)
		if !ok {
			if utf8.Valid(src) {
				t.Fatalf("documents parsed from UTF-8 cannot be cached: %#v", docs)
			}
			return
		}
		back, ok := decode(f.Path, int64(len(src)), payload)
		if !ok || !reflect.DeepEqual(back.Docs, f.Docs) {
			t.Fatalf("cache round trip changed the documents:\n got %#v\nwant %#v", back.Docs, f.Docs)
		}
	})
}
