package imports

import (
	"strings"
	"testing"
)

// FuzzScanPython feeds the Python import reader arbitrary source: it never
// panics, a file that does not parse has no imports, and every import's
// line lies within the file and names a module or a from-import's level.
func FuzzScanPython(f *testing.F) {
	f.Add([]byte("import a.b as c, d\nfrom ..x import (y,\n z as w)\n"))
	f.Add([]byte("from . import *\nif x: import y; from .z import q\n"))
	f.Add([]byte("raise E from err\ndef g():\n    yield from h()\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		raw := scanPython("m.py", src)
		if raw.Error != nil && len(raw.Py) != 0 {
			t.Fatalf("a file that does not parse has imports: %+v", raw.Py)
		}
		lines := strings.Count(string(src), "\n") + 1
		for _, im := range raw.Py {
			if im.Line < 1 || im.Line > lines+strings.Count(string(src), "\r") || im.Level < 0 || (im.Module == "" && im.Level == 0) {
				t.Fatalf("bad import %+v in a %d-line file", im, lines)
			}
		}
	})
}
