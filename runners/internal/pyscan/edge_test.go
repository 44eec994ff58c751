package pyscan

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tausik/tausik/runners/internal/pyscan/pyscantest"
)

// TestEdgeCases runs every snippet through the scanner, and through CPython
// when one is at hand to prove the expectation right.
func TestEdgeCases(t *testing.T) {
	for i, c := range pyscantest.EdgeCases {
		got := Scan("case.py", []byte(c.Src))
		switch {
		case c.Line == 0 && !got.Parsed:
			t.Errorf("case %d %q: rejected at line %d (%s), want parsed", i, c.Src, got.Error.Line, got.Error.Msg)
		case c.Line != 0 && got.Parsed:
			t.Errorf("case %d %q: parsed, want an error at line %d", i, c.Src, c.Line)
		case c.Line != 0 && got.Error.Line != c.Line:
			t.Errorf("case %d %q: error at line %d (%s), want line %d", i, c.Src, got.Error.Line, got.Error.Msg, c.Line)
		}
	}
}

// TestEdgeCasesAgainstCPython checks that CPython agrees with every
// expectation in pyscantest.EdgeCases: the reference interpreter for cases it is new
// enough for, and $TAUSIK_MODERN_PY (if set) for the newer ones.
func TestEdgeCasesAgainstCPython(t *testing.T) {
	pys := []string{refPython(t)}
	if m := os.Getenv("TAUSIK_MODERN_PY"); m != "" {
		pys = append(pys, m)
	} else {
		t.Log("set TAUSIK_MODERN_PY to a CPython >= 3.12 to check the PEP 701 cases too")
	}
	for _, py := range pys {
		minor, err := strconv.Atoi(strings.TrimPrefix(pyVersion(t, py), "3."))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		var paths []string
		var cases []pyscantest.Edge
		for i, c := range pyscantest.EdgeCases {
			if c.Since == 0 || c.Since > minor {
				continue
			}
			p := "case" + strconv.Itoa(i) + ".py"
			if err := os.WriteFile(filepath.Join(dir, p), []byte(c.Src), 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
			cases = append(cases, c)
		}
		ref := runRef(t, py, dir, paths, 1)
		for k, p := range paths {
			c, w := cases[k], ref[p]
			if w.Parsed != (c.Line == 0) {
				t.Errorf("python 3.%d disagrees on %q: parsed=%v %+v", minor, c.Src, w.Parsed, w.Error)
				continue
			}
			if !w.Parsed && w.Error.Line > 0 && w.Error.Line != c.Line && !literalError(w.Error.Msg) {
				t.Errorf("python 3.%d rejects %q at line %d (%s), the case says line %d", minor, c.Src, w.Error.Line, w.Error.Msg, c.Line)
			}
			if d := compareRef(w, Scan(p, []byte(c.Src))); d != "" {
				t.Errorf("%q: %s", c.Src, d)
			}
		}
		t.Logf("python 3.%d agrees on %d cases", minor, len(paths))
	}
}
