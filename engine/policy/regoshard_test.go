package policy

import (
	"context"
	"io/fs"
	"path"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/policies"
)

// compileAt compiles src as gate g's policy with GOMAXPROCS set to procs
// (the cores the split is made for), restoring it afterwards.
func compileAt(t testing.TB, procs int, gate, src string) *regoPolicy {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	d := &diag.Diagnostics{}
	p := compileRego(context.Background(), gate, "policy.rego", []byte(src), d)
	if err := d.Err(); err != nil || p == nil {
		t.Fatalf("compile with %d cores: %v", procs, err)
	}
	return p
}

// shardCount is how many shards p's evaluations run on (0: not split).
func shardCount(p *regoPolicy) int {
	if p.split == nil {
		return 0
	}
	return len(p.split.get(context.Background()))
}

// atLeastTwoCores runs the test's evaluations on two cores even on a
// machine with one, so that the shards do run at once, and splits inputs
// of any size.
func atLeastTwoCores(t *testing.T) {
	t.Setenv(EnvShardMin, "0")
	if runtime.GOMAXPROCS(0) < 2 {
		prev := runtime.GOMAXPROCS(2)
		t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
	}
}

func builtinRegoSources(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	dirs, err := fs.ReadDir(policies.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range dirs {
		if src, err := fs.ReadFile(policies.FS, path.Join(e.Name(), "policy.rego")); err == nil && e.IsDir() {
			out[e.Name()] = string(src)
		}
	}
	if len(out) < 20 {
		t.Fatalf("found %d built-in Rego policies", len(out))
	}
	return out
}

// TestShardedInputUse: a split policy reads what the policy as written
// reads (the verdict cache's key depends on it), for every built-in; and
// the built-ins whose violations iterate are split.
func TestShardedInputUse(t *testing.T) {
	sharded := 0
	for gate, src := range builtinRegoSources(t) {
		whole, split := compileAt(t, 1, gate, src), compileAt(t, 4, gate, src)
		if shardCount(whole) != 0 {
			t.Errorf("%s: split with one core", gate)
		}
		if !reflect.DeepEqual(whole.use, split.use) {
			t.Errorf("%s: reads %+v split, %+v as written", gate, split.use, whole.use)
		}
		if shardCount(split) == 4 {
			sharded++
		}
		if gate == "class_surface" && shardCount(split) != 4 {
			t.Errorf("class_surface: %d shards, want 4", shardCount(split))
		}
	}
	if sharded < 10 {
		t.Errorf("only %d built-ins split", sharded)
	}
}

// shardCase is a synthetic policy's violations body and the input it
// runs on.
type shardCase struct {
	name, rules string
	split       bool // whether the policy is split
}

var shardDoc = map[string]any{
	"arr": []any{"a", "b", "c", "a", "d", "e", "f", "g"},
	"obj": map[string]any{"k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5},
	"nested": []any{
		map[string]any{"name": "x", "n": 3}, map[string]any{"name": "y", "n": 30},
		map[string]any{"name": "x", "n": 300}, map[string]any{"name": "z", "n": 7},
	},
}

var shardCases = []shardCase{
	{name: "array with key", split: true, rules: `violations contains {"msg": sprintf("%d %s", [i, x])} if { some i, x in input.t.arr }`},
	{name: "array without key, duplicates united", split: true, rules: `violations contains {"msg": x} if { some x in input.t.arr }`},
	{name: "object", split: true, rules: `violations contains {"msg": k} if { some k, v in input.t.obj; v > 1 }`},
	{name: "set", split: true, rules: `s := {x | some x in input.t.arr}
violations contains {"msg": concat("", [x, "!"])} if { some x in s }`},
	{name: "wildcard key", split: true, rules: `violations contains {"msg": sprintf("%v", [x])} if { some _, x in input.t.obj }`},
	{name: "duplicates across shards", split: true, rules: `violations contains {"msg": c.name} if { some c in input.t.nested; c.n > 1 }`},
	{name: "iteration after assignments, several bodies", split: true, rules: `violations contains {"msg": "static"} if { true }
violations contains {"msg": sprintf("%s:%d", [c.name, c.n]), "line": c.n} if { lim := 5; some i, c in input.t.nested; c.n > lim }
violations contains {"msg": "objs"} if { some k, _ in input.t.obj; k == "k3" }
not_applicable contains "never" if { false }
could_not_run contains {"code": "c", "msg": k} if { some k, _ in input.t.obj; k == "k5" }`},
	{name: "pattern only", split: false, rules: `violations contains {"msg": a} if { some [a, _] in [["p", 1], ["q", 2]] }`},
	{name: "no iteration", split: false, rules: `violations contains {"msg": "x"} if { input.t.arr[_] == "a" }`},
	{name: "iteration under not and every", split: false, rules: `violations contains {"msg": "x"} if { not any_big; every x in input.t.arr { x != "zz" } }
any_big if { some v in input.t.obj; v > 100 }`},
	{name: "violations read by another rule", split: false, rules: `violations contains {"msg": x} if { some x in input.t.arr }
not_applicable contains "many" if { count(violations) > 100 }`},
	{name: "violations read through data", split: false, rules: `violations contains {"msg": x} if { some x in input.t.arr }
total := count(data.tausik.gates.t.violations)
not_applicable contains "n" if { total > 100 }`},
	{name: "violations read in a comprehension", split: false, rules: `violations contains {"msg": x} if { some x in input.t.arr }
not_applicable contains "n" if { n := count([v | some v in violations]); n > 100 }`},
	{name: "with on the iteration", split: false, rules: `violations contains {"msg": x} if { some x in input.t.arr with input.t.arr as ["q"] }`},
}

func shardInput() *Input {
	doc := facts.NewDocument()
	doc.Set("t", facts.OK(shardDoc))
	return NewDocumentInput(doc, map[string]any{})
}

// TestShardedEqualsWhole: each synthetic policy gives, split over 1..4
// shards, exactly the result of the policy compiled as written.
func TestShardedEqualsWhole(t *testing.T) {
	atLeastTwoCores(t)
	ctx := context.Background()
	for _, c := range shardCases {
		src := "package tausik.gates.t\n\n" + c.rules + "\n"
		whole := compileAt(t, 1, "t", src)
		want, err := whole.Eval(ctx, shardInput())
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(want.Violations) == 0 && c.split {
			t.Fatalf("%s: no violations to split", c.name)
		}
		for _, n := range []int{2, 3, 4} {
			split := compileAt(t, n, "t", src)
			if got := shardCount(split) > 0; got != c.split {
				t.Fatalf("%s: split %v, want %v", c.name, got, c.split)
			}
			got, err := split.Eval(ctx, shardInput())
			if err != nil {
				t.Fatalf("%s, %d shards: %v", c.name, n, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %d shards:\n got %+v\nwant %+v", c.name, n, got, want)
			}
		}
	}
}

// TestShardedErrorIsWholeError: an error raised in one shard only, or one
// the whole query raises elsewhere, is the error the policy as written
// gives; a cancelled evaluation is cancelled.
func TestShardedErrorIsWholeError(t *testing.T) {
	atLeastTwoCores(t)
	ctx := context.Background()
	src := `package tausik.gates.t

violations contains {"msg": sprintf("%d", [to_number(x)])} if { some i, x in input.t.arr; i == 5 }
violations contains {"msg": "late"} if { some i, x in input.t.arr; i == 6; to_number(x) > 0 }
`
	whole, split := compileAt(t, 1, "t", src), compileAt(t, 2, "t", src)
	if shardCount(split) != 2 {
		t.Fatalf("not split: %d shards", shardCount(split))
	}
	_, want := whole.Eval(ctx, shardInput())
	_, got := split.Eval(ctx, shardInput())
	if want == nil || got == nil || got.Error() != want.Error() {
		t.Fatalf("split error %v, want %v", got, want)
	}
	if !strings.Contains(want.Error(), "policy.rego:3") {
		t.Errorf("error %v is not located at line 3", want)
	}
}

// TestShardedCancelled: a cancelled evaluation of a split policy fails as
// cancelled, as the policy as written does (OPA's words for it depend on
// where it notices, in either).
func TestShardedCancelled(t *testing.T) {
	atLeastTwoCores(t)
	src := `package tausik.gates.t

violations contains {"msg": "never"} if { some i in numbers.range(0, 300000); i * 2 < 0 }
`
	whole, split := compileAt(t, 1, "t", src), compileAt(t, 2, "t", src)
	if shardCount(split) != 2 {
		t.Fatalf("not split: %d shards", shardCount(split))
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := split.Eval(cancelled, shardInput())
	_, want := whole.Eval(cancelled, shardInput())
	if err == nil || want == nil || !strings.Contains(err.Error(), "eval_cancel_error") || !strings.Contains(want.Error(), "eval_cancel_error") {
		t.Fatalf("cancelled: split error %v, whole %v", err, want)
	}
}

// TestShardBuiltinReserved: a policy naming the shard filter is refused
// at the line that names it.
func TestShardBuiltinReserved(t *testing.T) {
	src := "package tausik.gates.t\n\nviolations contains {\"msg\": \"x\"} if {\n\t__tausik_shard(1)\n}\n"
	d := &diag.Diagnostics{}
	if p := compileRego(context.Background(), "t", "policy.rego", []byte(src), d); p != nil {
		t.Fatal("a policy calling the shard filter compiled")
	}
	err := d.Err()
	if err == nil || !strings.Contains(err.Error(), "policy.rego:4") || !strings.Contains(err.Error(), "reserves") {
		t.Fatalf("diagnostics %v", err)
	}
}

// TestShardMinKeepsSmallInputsWhole: an input under EnvShardMin items runs
// the whole query, and the shards' queries are not even prepared; one at
// it is split.
func TestShardMinKeepsSmallInputsWhole(t *testing.T) {
	atLeastTwoCores(t)
	t.Setenv(EnvShardMin, "9")
	src := "package tausik.gates.t\n\nviolations contains {\"msg\": x} if { some x in input.t.arr }\n"
	p := compileAt(t, 2, "t", src)
	small := facts.NewDocument()
	small.Set("t", facts.OK(map[string]any{"arr": []any{"a", "b"}}))
	if _, err := p.Eval(context.Background(), NewDocumentInput(small, nil)); err != nil {
		t.Fatal(err)
	}
	if p.split == nil || p.split.queries != nil {
		t.Fatal("a small input was split")
	}
	if _, err := p.Eval(context.Background(), shardInput()); err != nil || p.split.queries == nil {
		t.Fatalf("an input of %d items was not split (%v)", inputItems(shardObj(t), 1000), err)
	}
}

// TestInputItems counts the namespaces' items and those of their
// collections, and stops at the limit.
func TestInputItems(t *testing.T) {
	obj := shardObj(t)
	// t: 3 keys; arr 8, obj 5, nested 4; schema: its keys.
	if n := inputItems(obj, 1000); n < 20 {
		t.Errorf("inputItems %d, want at least 20", n)
	}
	if n := inputItems(obj, 5); n < 5 || n > 12 {
		t.Errorf("inputItems with limit 5: %d", n)
	}
}

func shardObj(t *testing.T) ast.Object {
	terms, err := shardInput().RegoTerms()
	if err != nil {
		t.Fatal(err)
	}
	return ast.NewObject(terms...)
}

// TestShardedDiagnosticsAreTheSource: a splittable policy that does not
// compile gets the diagnostics of its source as written, once each.
func TestShardedDiagnosticsAreTheSource(t *testing.T) {
	for _, src := range []string{
		"package tausik.gates.t\n\nviolations contains {\"msg\": y} if {\n\tsome x in input.a\n\ty := no_such_function(x)\n}\n",
		"package tausik.gates.t\n\nviolations contains {\"msg\": x, \"lines\": 1} if {\n\tsome x in input.a\n}\n",
		"package tausik.gates.t\n\nviolations contains {\"msg\": concat(\"\", x)} if {\n\tsome i, x in [1, 2]\n\ti > 0\n}\n",
	} {
		diags := map[int]string{}
		for _, procs := range []int{1, 2} {
			prev := runtime.GOMAXPROCS(procs)
			d := &diag.Diagnostics{}
			p := compileRego(context.Background(), "t", "policy.rego", []byte(src), d)
			runtime.GOMAXPROCS(prev)
			if p != nil || d.Err() == nil {
				t.Fatalf("%d cores: compiled:\n%s", procs, src)
			}
			diags[procs] = d.Err().Error()
		}
		if diags[1] != diags[2] {
			t.Errorf("diagnostics differ\none core: %s\nsplit:    %s", diags[1], diags[2])
		}
		if strings.Count(diags[2], "policy.rego:") != 1 {
			t.Errorf("want one located diagnostic, got %s", diags[2])
		}
	}
}
