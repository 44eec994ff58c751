package regoshard

import (
	"fmt"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

func parse(t *testing.T, rules string) *ast.Module {
	t.Helper()
	mod, err := ast.ParseModuleWithOpts("p.rego", "package tausik.gates.g\n\n"+rules, ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		t.Fatal(err)
	}
	return mod
}

// TestSplitInsertsFilter: the filter follows the first top-level
// iteration and takes its key (or its element when the key is `_`); a
// body without one is shard 0's; the module split from is unchanged.
func TestSplitInsertsFilter(t *testing.T) {
	mod := parse(t, `violations contains v if {
	lim := 3
	some k, v in input.x
	v > lim
}
violations contains x if { some _, x in input.y }
violations contains "c" if { input.z }
other contains v if { some v in input.w }
`)
	before := mod.String()
	out, ok := Split(mod, "violations")
	if !ok {
		t.Fatal("not split")
	}
	if mod.String() != before {
		t.Error("Split changed its argument")
	}
	want := [][]string{
		{"assign(lim, 3)", "some k, v in input.x", Builtin + "(k)", "gt(v, lim)"},
		{"some _, x in input.y", Builtin + "(x)"},
		{Builtin + "(0)", "input.z"},
		{"some v in input.w"},
	}
	for i, r := range out.Rules {
		var got []string
		for j, e := range r.Body {
			if e.Index != j {
				t.Errorf("rule %d: expression %d has index %d", i, j, e.Index)
			}
			got = append(got, strings.ReplaceAll(e.String(), "$0", "_"))
		}
		if strings.Join(got, "; ") != strings.Join(want[i], "; ") {
			t.Errorf("rule %d: body %q, want %q", i, got, want[i])
		}
	}
}

// TestSplitRefuses: each condition that could make the split differ from
// the rule keeps the module whole.
func TestSplitRefuses(t *testing.T) {
	loop := "violations contains x if { some x in input.a }\n"
	for name, rules := range map[string]string{
		"no iteration":          `violations contains x if { x := input.a[_] }`,
		"under not":             `violations contains "x" if { not f }` + "\nf if { some x in input.a; x > 1 }",
		"under every":           `violations contains "x" if { every x in input.a { x > 1 } }`,
		"in a comprehension":    `violations contains y if { y := {x | some x in input.a} }`,
		"pattern":               `violations contains a if { some [a, b] in input.a }`,
		"with":                  `violations contains x if { some x in input.a with input.a as [1] }`,
		"read by a rule":        loop + "n := count(violations)",
		"read by a function":    loop + "f(_) := violations",
		"read in an expression": loop + `not_applicable contains "n" if { violations[_] }`,
		"read through data":     loop + "n := count(data.tausik.gates.g.violations)",
		"the package read":      loop + "n := data.tausik.gates.g",
		"data read":             loop + "n := data",
		"a computed key":        loop + "n := data.tausik.gates[k] if { k := \"g\" }",
		"imported":              "import data.tausik.gates.g as me\n" + loop,
		"in a with target":      loop + `n if { true with data.tausik.gates.g.violations as {} }`,
		"a longer head":         loop + `violations.extra contains 1 if { true }`,
		"a random call":         loop + `n := rand.intn("x", 9)`,
		"a random expression":   "violations contains x if { some x in input.a; rand.intn(\"x\", 9) }",
	} {
		if _, ok := Split(parse(t, rules), "violations"); ok {
			t.Errorf("%s: split", name)
		}
	}
	for name, rules := range map[string]string{
		"another rule of data": loop + "n := data.tausik.gates.g.other\nother := 1",
		"input of that name":   loop + "n := input.violations",
	} {
		if _, ok := Split(parse(t, rules), "violations"); !ok {
			t.Errorf("%s: not split", name)
		}
	}
}

// TestOfSpreads: an array's indices fall evenly in the shards; strings
// and objects spread over every shard.
func TestOfSpreads(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		ints, strs := make([]int, n), make([]int, n)
		for i := range 1200 {
			ints[shardOf(ast.IntNumberTerm(i), n)]++
			strs[shardOf(ast.StringTerm(fmt.Sprintf("Lib/pkg/mod%d.py", i)), n)]++
		}
		for s := range n {
			if ints[s] != 1200/n {
				t.Errorf("%d shards: indices %v", n, ints)
			}
			if strs[s] < 1200/n/2 {
				t.Errorf("%d shards: strings %v", n, strs)
			}
		}
	}
	if shardOf(ast.StringTerm("x"), 1) != 0 || shardOf(ast.IntNumberTerm(-7), 2) < 0 {
		t.Error("shardOf out of range")
	}
}

// TestReserved: the filter's name is found wherever a policy writes it.
func TestReserved(t *testing.T) {
	if _, found := Reserved(parse(t, `violations contains x if { some x in input.a }`)); found {
		t.Error("reserved name found in a policy without it")
	}
	loc, found := Reserved(parse(t, "f(x) := y if {\n\ty := "+Builtin+"(x)\n}"))
	if !found || loc == nil || loc.Row != 4 {
		t.Errorf("found %v at %v", found, loc)
	}
}

// TestSplitWritesNoSharedTerm: the filter Split gives a body without an
// iteration is a term of its own. OPA interns small numbers' terms for
// every module, so setting the location of the interned 0 raced between
// two policies compiled at once (tausik compiles the built-ins in the
// background) and gave that term some rule's location everywhere.
func TestSplitWritesNoSharedTerm(t *testing.T) {
	mod := parse(t, "violations contains {\"msg\": \"x\"} if { input.a }\n\nviolations contains {\"msg\": x} if { some x in input.xs }\n")
	if _, ok := Split(mod, "violations"); !ok {
		t.Fatal("not split")
	}
	if loc := ast.IntNumberTerm(0).Location; loc != nil {
		t.Errorf("the interned 0 now has a location: %v", loc)
	}
}
