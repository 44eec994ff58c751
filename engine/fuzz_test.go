package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/tausik/tausik/engine/policy"
)

// FuzzParseMeta: gate.yaml parsing never panics, and whatever it accepts is
// valid by its own rules.
func FuzzParseMeta(f *testing.F) {
	f.Add([]byte(gateYAML("big", "rego", paramsMaxLines)))
	f.Add([]byte(gateYAML("big", "cel", "params:\n  x: {type: strings, default: [a], project_may: add, description: d}")))
	f.Add([]byte("name: [\n"))
	f.Add([]byte("name: big\nparams: {a: 1}\n"))
	f.Add([]byte("- a\n- b\n"))
	f.Add([]byte("name: &a big\nfacts: *a\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d := &Diagnostics{Kind: ErrBundle}
		m := parseMeta("gate.yaml", "big", b, func(ns string) bool { return ns == "files" }, d)
		if len(d.Items) > 0 {
			return
		}
		if m.Name != "big" || (m.Severity != SeverityBlock && m.Severity != SeverityWarn) || len(m.Triggers) == 0 {
			t.Fatalf("accepted an invalid gate.yaml: %+v", m)
		}
		for _, p := range m.Params {
			if _, err := CoerceParam(p.Type, p.Default); err != nil {
				t.Fatalf("accepted param %s with a bad default: %v", p.Name, err)
			}
		}
	})
}

// FuzzCompileCEL: policy.cel.yaml compilation never panics, and a compiled
// policy evaluates without panicking on an empty document.
func FuzzCompileCEL(f *testing.F) {
	f.Add([]byte(celBig))
	f.Add([]byte("let:\n  a: 1\nviolations:\n  - rule: r\n    expr: '[a]'\n"))
	f.Add([]byte("violations:\n  - rule: r\n    expr: '[{\"msg\": \"x\"}]'\n"))
	f.Add([]byte("violations: 3\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d := &Diagnostics{Kind: ErrBundle}
		p := policy.CompileCEL("policy.cel.yaml", b, false, d)
		if p == nil {
			if len(d.Items) == 0 {
				t.Fatal("refused without a diagnostic")
			}
			return
		}
		_, _ = policy.EvalBounded(context.Background(), p, policy.NewInput(map[string]any{}, map[string]any{}))
	})
}

// FuzzConfig: a config file of any bytes is either loaded or refused as
// ErrConfig, never a panic.
func FuzzConfig(f *testing.F) {
	f.Add([]byte(`{"gates": {"big": {"params": {"max_lines": 2}}}}`))
	f.Add([]byte(`{"gates": {"big": {"triggers": ["commit", 1]}}}`))
	f.Add([]byte(`{"gates": []}`))
	f.Add([]byte("{\n\"gates\": {\"big\": {\"enabled\": false}}}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tier, err := parseTier(TierProject, "gates.json", b)
		if err != nil {
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("refused as %v, not ErrConfig", err)
			}
			return
		}
		_ = tier.doc.line("gates", "big")
		g := &Gate{Meta: Meta{Name: "big", Severity: SeverityBlock, Triggers: []string{"commit"}, Enabled: true,
			Params: []Param{{Name: "max_lines", Type: TypeInt, Default: int64(3), ProjectMay: MayLower}}}}
		_, _, _ = resolveConfig([]*Gate{g}, []*tierFile{tier}, nil)
	})
}
