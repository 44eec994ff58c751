package pyscan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tausik/tausik/runners/internal/pyscan/pyscantest"
)

// TestGoldenFacts checks hand-written facts for syntax CPython 3.11 cannot
// parse (PEP 695, 701, 750) and for the corners of the rules.
func TestGoldenFacts(t *testing.T) {
	for _, c := range pyscantest.GoldenCases {
		t.Run(c.Name, func(t *testing.T) {
			got := Scan("case.py", []byte(c.Src))
			if !got.Parsed {
				t.Fatalf("not parsed: line %d: %s", got.Error.Line, got.Error.Msg)
			}
			if !reflect.DeepEqual(got.Classes, c.Want) {
				g, _ := json.MarshalIndent(got.Classes, "", "  ")
				w, _ := json.MarshalIndent(c.Want, "", "  ")
				t.Errorf("classes:\n%s\nwant:\n%s", g, w)
			}
		})
	}
}

// TestGoldenFactsAgainstModernCPython runs the golden cases through the
// reference with $TAUSIK_MODERN_PY (a CPython 3.12 or newer) to prove the
// hand-written facts are what that CPython's ast reports.
func TestGoldenFactsAgainstModernCPython(t *testing.T) {
	py := os.Getenv("TAUSIK_MODERN_PY")
	if py == "" {
		t.Skip("SKIP: set TAUSIK_MODERN_PY to a CPython >= 3.12 to check the golden facts against it")
	}
	minor, err := strconv.Atoi(strings.TrimPrefix(pyVersion(t, py), "3."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var paths []string
	for i, c := range pyscantest.GoldenCases {
		if c.Since > minor {
			t.Logf("skipping %q: needs CPython 3.%d", c.Name, c.Since)
			continue
		}
		p := "case" + strconv.Itoa(i) + ".py"
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c.Src), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	ref := runRef(t, py, dir, paths, 1)
	for i, c := range pyscantest.GoldenCases {
		w, ok := ref["case"+strconv.Itoa(i)+".py"]
		if !ok {
			continue
		}
		if !w.Parsed {
			t.Errorf("%s: CPython rejects it: line %d: %s", c.Name, w.Error.Line, w.Error.Msg)
			continue
		}
		if !reflect.DeepEqual(normClasses(w.Classes), c.Want) {
			t.Errorf("%s: %s", c.Name, classDiff(normClasses(w.Classes), c.Want))
		}
	}
}
