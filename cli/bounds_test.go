package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// teamGate writes a team gate bundle name/ (gate.yaml and its policy) under
// root/tausik/policies.
func teamGate(t *testing.T, root, name, lang, policy string) {
	t.Helper()
	dir := filepath.Join(root, "tausik", "policies", name)
	must(t, os.MkdirAll(dir, 0o755))
	meta := "name: " + name + `
description: A hostile team gate that tries to exhaust the evaluator.
prevents: Nothing; it exists to be stopped at a bound.
phase: scoped
triggers: [commit, pre-write]
severity: block
enabled: true
language: ` + lang + `
facts: []
`
	must(t, os.WriteFile(filepath.Join(dir, "gate.yaml"), []byte(meta), 0o644))
	file := "policy.rego"
	if lang == "cel" {
		file = "policy.cel.yaml"
	}
	must(t, os.WriteFile(filepath.Join(dir, file), []byte(policy), 0o644))
}

// verdicts runs `policy eval --format json` and returns each gate's
// outcome and first reason code and message.
func verdicts(t *testing.T, root string, args ...string) (int, map[string][3]string) {
	t.Helper()
	code, stdout, stderr := run(t, root, append([]string{"policy", "eval", "--format", "json"}, args...)...)
	var dec struct {
		Gates []struct {
			Name, Outcome string
			Reasons       []struct{ Code, Msg string }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &dec); err != nil {
		t.Fatalf("exit %d, no decision: %v\nstdout:\n%s\nstderr:\n%s", code, err, stdout, stderr)
	}
	out := map[string][3]string{}
	for _, g := range dec.Gates {
		v := [3]string{g.Outcome}
		if len(g.Reasons) > 0 {
			v[1], v[2] = g.Reasons[0].Code, g.Reasons[0].Msg
		}
		out[g.Name] = v
	}
	return code, out
}

func limitsConfig(t *testing.T, root, limits string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Join(root, "tausik"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "tausik", "gates.json"), []byte(`{"limits": `+limits+`}`), 0o644))
}

// TestRegoRangeStopped: numbers.range over 1e8 numbers (4.5 GB in 12 s
// before bounds) is stopped at the memory budget or the deadline; the
// process lives on and the other gates are judged.
func TestRegoRangeStopped(t *testing.T) {
	root := t.TempDir()
	teamGate(t, root, "hostile", "rego", `package tausik.gates.hostile

violations contains {"msg": "never"} if count(numbers.range(0, 100000000)) < 0
`)
	teamGate(t, root, "calm", "rego", `package tausik.gates.calm

violations contains {"msg": "always"} if true
`)
	limitsConfig(t, root, `{"default": {"eval_memory_mb": 64}}`)
	_, v := verdicts(t, root, "--trigger", "commit")
	if x := v["hostile"]; x[0] != "COULD_NOT_RUN" || (x[1] != "eval_memory" && x[1] != "eval_timeout") {
		t.Errorf("hostile: %v, want COULD_NOT_RUN eval_memory or eval_timeout", x)
	}
	if !strings.Contains(v["hostile"][2], "64 MB") && !strings.Contains(v["hostile"][2], "30000 ms") {
		t.Errorf("hostile: the reason %q does not name the limit", v["hostile"][2])
	}
	if c := v["calm"]; c[0] != "FAILED" {
		t.Errorf("calm: %v, want FAILED: the other gates are judged", c)
	}
}

// TestRegoComprehensionTimesOut: a 5,000 × 5,000 comprehension (past 90 s
// before bounds) is stopped at a tiny configured deadline.
func TestRegoComprehensionTimesOut(t *testing.T) {
	root := t.TempDir()
	teamGate(t, root, "hostile", "rego", `package tausik.gates.hostile

violations contains {"msg": "never"} if {
	count({[i, j] | some i in numbers.range(1, 5000); some j in numbers.range(1, 5000)}) < 0
}
`)
	limitsConfig(t, root, `{"default": {"eval_timeout_ms": 20}}`)
	_, v := verdicts(t, root, "--trigger", "commit", "--gate", "hostile")
	if x := v["hostile"]; x[0] != "COULD_NOT_RUN" || x[1] != "eval_timeout" || !strings.Contains(x[2], "20 ms") {
		t.Errorf("hostile: %v, want COULD_NOT_RUN eval_timeout naming 20 ms", x)
	}
}

// TestCELCostStopped: the CEL attacks that ran out of memory before the
// cost limit was set come out COULD_NOT_RUN cel_cost, in a hook's class of
// limits too.
func TestCELCostStopped(t *testing.T) {
	var lets strings.Builder
	lets.WriteString("let:\n  s0: '\"ab\"'\n")
	for i := 1; i <= 40; i++ {
		prev := "s" + itoa(i-1)
		lets.WriteString("  s" + itoa(i) + ": " + prev + " + " + prev + "\n")
	}
	doublings := lets.String() + "violations:\n  - rule: r\n    expr: '[s40].filter(s, size(s) < 0).map(s, {\"msg\": s})'\n"
	lists := "let:\n  l0: '[1, 2]'\n"
	for i := 1; i <= 40; i++ {
		prev := "l" + itoa(i-1)
		lists += "  l" + itoa(i) + ": " + prev + " + " + prev + "\n"
	}
	lists += "violations:\n  - rule: r\n    expr: 'l40.map(x, {\"msg\": string(x)})'\n"
	// Nine nested maps over the input: no estimate bounds them before they
	// run (TestCELEstimateRefused has them over a literal list).
	dyn := "input.params.items"
	expr := "x8"
	for i := 8; i >= 0; i-- {
		expr = dyn + ".map(x" + itoa(i) + ", " + expr + ")"
	}
	dynMaps := "violations:\n  - rule: r\n    expr: '[{\"msg\": string(size(" + expr + "))}]'\n"
	for name, policy := range map[string]string{"doublings": doublings, "lists": lists, "dynmaps": dynMaps} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			teamGate(t, root, "hostile", "cel", policy)
			if name == "dynmaps" {
				// Over the input, cost and deadline race: a cost limit far
				// under what the deadline allows decides it.
				limitsConfig(t, root, `{"hook": {"cel_cost": 100000}, "default": {"cel_cost": 100000}}`)
				p := filepath.Join(root, "tausik", "policies", "hostile", "gate.yaml")
				b, err := os.ReadFile(p)
				must(t, err)
				must(t, os.WriteFile(p, append(b, []byte("params:\n  items:\n    type: strings\n    default: [a, b, c, d, e, f, g, h, i, j]\n    description: ten items.\n")...), 0o644))
			}
			for _, trigger := range []string{"commit", "pre-write"} {
				_, v := verdicts(t, root, "--trigger", trigger, "--gate", "hostile")
				if x := v["hostile"]; x[0] != "COULD_NOT_RUN" || x[1] != "cel_cost" {
					t.Errorf("%s: hostile: %v, want COULD_NOT_RUN cel_cost", trigger, x)
				}
			}
		})
	}
}

// TestCELEstimateRefused: nine nested maps over a literal list of ten cost
// at least 10⁹ by cel-go's estimate: over every limit, the bundle is
// refused at load (exit 3, at the expression's line); over the hook's
// limit only, the gate is COULD_NOT_RUN cel_cost there before it runs.
func TestCELEstimateRefused(t *testing.T) {
	nested := func(depth int) string {
		expr := "x0"
		for i := depth - 1; i >= 0; i-- {
			expr = "[1,2,3,4,5,6,7,8,9,10].map(x" + itoa(i) + ", " + expr + ")"
		}
		return "violations:\n  - rule: r\n    expr: '[{\"msg\": string(size(" + expr + "))}].filter(v, false)'\n"
	}
	root := t.TempDir()
	teamGate(t, root, "hostile", "cel", nested(9))
	code, _, stderr := run(t, root, "policy", "eval", "--trigger", "commit")
	if code != 3 || !strings.Contains(stderr, "tausik/policies/hostile/policy.cel.yaml:3: its estimated cost") {
		t.Errorf("nine maps: exit %d, want 3 at policy.cel.yaml:3; stderr:\n%s", code, stderr)
	}
	root = t.TempDir()
	teamGate(t, root, "hostile", "cel", nested(5))
	limitsConfig(t, root, `{"hook": {"cel_cost": 1000}}`)
	_, v := verdicts(t, root, "--trigger", "pre-write", "--gate", "hostile")
	if x := v["hostile"]; x[0] != "COULD_NOT_RUN" || x[1] != "cel_cost" || !strings.Contains(x[2], "estimated cost") {
		t.Errorf("five maps at pre-write: %v, want COULD_NOT_RUN cel_cost on the estimate", x)
	}
	if _, v = verdicts(t, root, "--trigger", "commit", "--gate", "hostile"); v["hostile"][0] != "PASSED" {
		t.Errorf("five maps at commit: %v, want PASSED under the default limit", v["hostile"])
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
