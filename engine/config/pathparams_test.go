package config

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/gate"
)

// TestCheckLoopholes: a tier's pattern that, with the gate's own, leaves out
// every judged file is taken out of the params and reported; one that
// matches no file is kept and warned with the pattern likely meant; the
// gate's own patterns are never judged, and a pattern that leaves some
// judged file in is kept quietly.
func TestCheckLoopholes(t *testing.T) {
	g := &gate.Gate{Meta: gate.Meta{Name: "g", Params: []gate.Param{{Name: "exclude", Type: gate.TypePaths,
		Default: map[string]any{"**/testdata/": "test data"}}}}}
	files := []string{"src/a.py", "pkg/tests/test_a.py", "testdata/x.py", "README.md"}
	py := func(f string) bool { return strings.HasSuffix(f, ".py") }
	cases := []struct {
		add      string
		kept     bool
		warnings string
	}{
		{"**", false, `"**" refused: it matches every file the gate judges (2)`},
		{"*.py", false, `"*.py" refused`},
		{"**/*", false, `refused`},
		{"src/", true, ""},
		{"tests/", true, `"tests/" matches no file; did you mean "**/tests/"?`},
		{"*.rs", true, `"*.rs" matches no file`},
	}
	for _, c := range cases {
		eff := &Effective{Params: map[string]any{"exclude": map[string]any{"**/testdata/": "test data", c.add: "why"}},
			from: map[string]map[string]string{"exclude": {c.add: "tausik/gates.json:3"}}}
		got := strings.Join(CheckLoopholes(g, eff, files, py), "\n")
		params := eff.Params["exclude"].(map[string]any)
		if _, kept := params[c.add]; kept != c.kept {
			t.Errorf("%q: kept %v, want %v (%s)", c.add, kept, c.kept, got)
		}
		if _, own := params["**/testdata/"]; !own {
			t.Errorf("%q: the gate's own pattern was dropped", c.add)
		}
		if c.warnings == "" && got != "" || !strings.Contains(got, c.warnings) {
			t.Errorf("%q: warnings %q, want %q", c.add, got, c.warnings)
		}
		if c.warnings != "" && !strings.HasPrefix(got, "tausik/gates.json:3: gates.g.params.exclude: ") {
			t.Errorf("%q: warning %q does not name file, line and key", c.add, got)
		}
	}
	// A loophole split in two: src/ and **/tests/ each leave a Python file
	// in, together none; both are refused, each named where it was written.
	// Two that still leave one file in are kept.
	for _, c := range []struct {
		add  []string
		kept bool
	}{{[]string{"src/", "**/tests/"}, false}, {[]string{"src/", "pkg/"}, false}, {[]string{"src/", "README.md"}, true}} {
		params := map[string]any{"**/testdata/": "test data"}
		from := map[string]string{}
		for i, k := range c.add {
			params[k], from[k] = "why", "tausik/gates.json:"+string(rune('3'+i))
		}
		eff := &Effective{Params: map[string]any{"exclude": params}, from: map[string]map[string]string{"exclude": from}}
		got := strings.Join(CheckLoopholes(g, eff, files, py), "\n")
		left := eff.Params["exclude"].(map[string]any)
		for i, k := range c.add {
			if _, kept := left[k]; kept != (c.kept || k == "README.md") {
				t.Errorf("%v: %q kept %v, want %v (%s)", c.add, k, kept, c.kept, got)
			}
			if !c.kept && !strings.Contains(got, "tausik/gates.json:"+string(rune('3'+i))+": gates.g.params.exclude: "+strconv.Quote(k)+" refused: with ") {
				t.Errorf("%v: warnings %q do not refuse %q at its line", c.add, got, k)
			}
		}
	}
}
