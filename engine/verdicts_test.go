package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/engine/verdictcache"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/fs"
	"github.com/tausik/tausik/store"
)

// TestInputUse: the keys a policy reads are found in its syntax tree, and any
// read that does not name a key makes it read anything.
func TestInputUse(t *testing.T) {
	rego := func(body string) string { return "package tausik.gates.u\n\n" + body + "\n" }
	for _, c := range []struct {
		name, lang, src string
		keys            []string
		any             bool
	}{
		{"rego names", gate.LangRego, rego(regoBigBody), []string{"files", "params"}, false},
		{"rego import", gate.LangRego, rego("import input.python as py\n\nviolations contains {\"msg\": c.name} if { some c in py.files }"), []string{"python"}, false},
		{"rego whole input", gate.LangRego, rego("violations contains {\"msg\": \"x\"} if { x := input; x.files }"), nil, true},
		{"rego computed key", gate.LangRego, rego("k := \"files\"\n\nviolations contains {\"msg\": \"x\"} if { input[k] }"), nil, true},
		{"rego object.get", gate.LangRego, rego("violations contains {\"msg\": \"x\"} if { object.get(input, \"files\", 0) }"), nil, true},
		{"rego request", gate.LangRego, rego("violations contains {\"msg\": f} if { some f in input.request.files }"), []string{"request"}, false},
		{"cel names", gate.LangCEL, celBig, []string{"files", "params"}, false},
		{"cel has", gate.LangCEL, "violations:\n  - rule: r\n    expr: 'has(input.git) ? [] : [{\"msg\": \"no git\"}]'\n", []string{"git"}, false},
		{"cel index", gate.LangCEL, "violations:\n  - rule: r\n    expr: 'input[\"files\"].files.map(f, {\"msg\": f.path})'\n", nil, true},
		{"cel whole input", gate.LangCEL, "violations:\n  - rule: r\n    expr: '[input].map(i, {\"msg\": \"x\"})'\n", nil, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := &diag.Diagnostics{Kind: diag.ErrBundle}
			g := &gate.Gate{Meta: gate.Meta{Name: "u", Language: c.lang}, PolicyFile: "u/policy"}
			p := gate.CompilePolicy(context.Background(), g, []byte(c.src), d)
			if p == nil {
				t.Fatalf("does not compile: %v", d)
			}
			u := policy.UseOf(p)
			if u.Any != c.any || (!c.any && !slices.Equal(u.Keys, c.keys)) {
				t.Errorf("use = %+v, want keys %v any %v", u, c.keys, c.any)
			}
		})
	}
}

// regoBigBody is regoBig without its package line.
const regoBigBody = `could_not_run contains "files_unavailable" if input.files.status != "ok"

violations contains {"msg": sprintf("%s is big", [f.path]), "file": f.path} if {
	some f in input.files.files
	f.lines > input.params.max_lines
}`

// verdictEngine is an engine over root with the gates in files and a real
// store at db.
func verdictEngine(t *testing.T, root, db string, files map[string]string) *Engine {
	t.Helper()
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(context.Background(), Deps{Root: root, Builtin: bundleFS(files), Runners: runners.NewRegistry(fs.New(fs.WithCache(st))),
		Store: st, Log: StoreLog{st}, Requester: "test"}, WithLazyBuiltins())
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// verdictGates are a reusable Rego gate, a reusable CEL gate and a gate that
// reads the request, which must never be reused.
func verdictGates() map[string]string {
	return map[string]string{
		"big/gate.yaml":          gateYAML("big", gate.LangRego, paramsMaxLines),
		"big/policy.rego":        regoBig,
		"celbig/gate.yaml":       gateYAML("celbig", gate.LangCEL, paramsMaxLines),
		"celbig/policy.cel.yaml": celBig,
		"scoped/gate.yaml":       gateYAML("scoped", gate.LangRego),
		"scoped/policy.rego":     "package tausik.gates.scoped\n\nviolations contains {\"msg\": f} if { some f in input.request.files; endswith(f, \".bad\") }\n",
	}
}

func evalCommit(t *testing.T, e *Engine) *Decision {
	t.Helper()
	dec, err := e.Evaluate(context.Background(), Request{Trigger: "commit"})
	if err != nil {
		t.Fatal(err)
	}
	return dec
}

func verdictByName(t *testing.T, d *Decision, name string) Verdict {
	t.Helper()
	for _, v := range d.Gates {
		if v.Name == name {
			return v
		}
	}
	t.Fatalf("decision %s has no verdict for %s", d.ID, name)
	return Verdict{}
}

// TestVerdictReuse: a second evaluation over the same facts reuses the
// results of the policies that read only their facts and params, names the
// decision that computed them, and gives the same verdicts; a changed file,
// a changed param or a changed policy is evaluated afresh.
func TestVerdictReuse(t *testing.T) {
	root := t.TempDir()
	db := filepath.Join(t.TempDir(), "t.db")
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "1\n2\n3\n4\n")
	write("b.txt", "1\n")
	first := evalCommit(t, verdictEngine(t, root, db, verdictGates()))
	second := evalCommit(t, verdictEngine(t, root, db, verdictGates()))
	for _, name := range []string{"big", "celbig"} {
		a, b := verdictByName(t, first, name), verdictByName(t, second, name)
		if a.Reused != "" || b.Reused != first.ID {
			t.Errorf("%s: reused %q then %q, want \"\" then %s", name, a.Reused, b.Reused, first.ID)
		}
		if a.Outcome != Failed || b.Outcome != a.Outcome || len(b.Violations) != 1 || !reflect.DeepEqual(b.Violations[0], a.Violations[0]) {
			t.Errorf("%s: %+v then %+v, want the same FAILED verdict", name, a, b)
		}
	}
	if v := verdictByName(t, second, "scoped"); v.Reused != "" || v.InputDigest != "" {
		t.Errorf("scoped reads the request, yet has input digest %q and was reused from %q", v.InputDigest, v.Reused)
	}
	if v := verdictByName(t, first, "big"); !strings.HasPrefix(v.InputDigest, "sha256:") {
		t.Errorf("big's verdict has input digest %q", v.InputDigest)
	}

	write("a.txt", "1\n")
	third := evalCommit(t, verdictEngine(t, root, db, verdictGates()))
	if v := verdictByName(t, third, "big"); v.Reused != "" || v.Outcome != Passed {
		t.Errorf("after a.txt shrank: %+v, want a fresh PASSED", v)
	}

	changed := verdictGates()
	changed["big/policy.rego"] = regoBig + "\n# edited\n"
	if v := verdictByName(t, evalCommit(t, verdictEngine(t, root, db, changed)), "big"); v.Reused != "" {
		t.Errorf("an edited policy reused %s", v.Reused)
	}
	changed["big/gate.yaml"] = gateYAML("big", gate.LangRego, "params:\n  max_lines: {type: int, default: 0, project_may: lower, description: the limit}")
	if v := verdictByName(t, evalCommit(t, verdictEngine(t, root, db, changed)), "big"); v.Reused != "" || v.Outcome != Failed {
		t.Errorf("a changed param: %+v, want a fresh FAILED", v)
	}
}

// TestVerdictCacheForged: a cache row is only a pointer into the decision
// log, and one that does not lead to a verdict the log holds for the same
// gate, policy and input digest is ignored (the policy is evaluated), never
// reported: here a row pointing a failing input at a decision in which the
// gate passed, rows naming no decision or a missing one, and garbage.
func TestVerdictCacheForged(t *testing.T) {
	root := t.TempDir()
	db := filepath.Join(t.TempDir(), "t.db")
	big := filepath.Join(root, "a.txt")
	if err := os.WriteFile(big, []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	passed := evalCommit(t, verdictEngine(t, root, db, verdictGates()))
	if v := verdictByName(t, passed, "big"); v.Outcome != Passed {
		t.Fatalf("setup: %+v", v)
	}
	if err := os.WriteFile(big, []byte("1\n2\n3\n4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, row := range []string{
		`{"decision": "` + passed.ID + `"}`,
		`{"decision": "01ARZ3NDEKTSV4RRFFQ69G5FAV"}`,
		`{"decision": "not a ulid"}`,
		`{}`,
		`[1, 2]`,
	} {
		// The key comes from another engine: one that has looked the key up
		// remembers what the log held before the row was forged.
		k := verdictEngine(t, root, db, verdictGates())
		keys, _ := k.reuse(context.Background(), []*gate.Gate{k.byName["big"]}, func(g *gate.Gate) map[string]any { return k.eff[g.Name].Params }, namespaceDigests(t, k))
		e := verdictEngine(t, root, db, verdictGates())
		forged := store.CacheEntry{Key: store.CacheKey{Runner: verdictcache.Runner, Version: e.verdicts.Version(), SHA256: verdictcache.HexOf(keys["big"])}, Value: json.RawMessage(row)}
		if err := e.store.CachePutMany(context.Background(), []store.CacheEntry{forged}); err != nil {
			t.Fatal(err)
		}
		if v := verdictByName(t, evalCommit(t, e), "big"); v.Reused != "" || v.Outcome != Failed {
			t.Errorf("cache row %s: %s reused %q, want the policy's own FAILED", row, v.Outcome, v.Reused)
		}
	}
}

// namespaceDigests gathers the files namespace as Evaluate does and returns
// the namespace digests.
func namespaceDigests(t *testing.T, e *Engine) map[string]string {
	t.Helper()
	doc, _ := e.gather(context.Background(), e.scope(Request{Trigger: "commit"}, e.now().UTC()), []string{"files"})
	_, parts, err := doc.DigestParts()
	if err != nil {
		t.Fatal(err)
	}
	return parts
}

// TestReusedVerdictIsACopy: an engine keeps the decisions it reads back for
// reuse, and hands out copies of their verdicts: whatever a caller does to
// one decision's violations, the next reuse reports them as logged.
func TestReusedVerdictIsACopy(t *testing.T) {
	root := t.TempDir()
	db := filepath.Join(t.TempDir(), "t.db")
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("1\n2\n3\n4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := verdictEngine(t, root, db, verdictGates())
	first := verdictByName(t, evalCommit(t, e), "big")
	if first.Outcome != Failed || first.Reused != "" || len(first.Violations) == 0 {
		t.Fatalf("setup: %+v", first)
	}
	second := evalCommit(t, e)
	for i := range second.Gates {
		if second.Gates[i].Name == "big" {
			if second.Gates[i].Reused == "" {
				t.Fatalf("the second evaluation did not reuse: %+v", second.Gates[i])
			}
			second.Gates[i].Violations[0].Msg = "changed by a caller"
			second.Gates[i].Reasons = append(second.Gates[i].Reasons[:0], policy.Reason{Code: "changed"})
		}
	}
	third := verdictByName(t, evalCommit(t, e), "big")
	if third.Reused == "" || !reflect.DeepEqual(third.Violations, first.Violations) || len(third.Reasons) != len(first.Reasons) {
		t.Errorf("the third reuse: %+v\nwant the violations logged first: %+v", third, first)
	}
}
