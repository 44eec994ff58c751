package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
)

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
		g := &Gate{Meta: gate.Meta{Name: "big", Severity: SeverityBlock, Triggers: []string{"commit"}, Enabled: true,
			Params: []gate.Param{{Name: "max_lines", Type: gate.TypeInt, Default: int64(3), ProjectMay: gate.MayLower}}}}
		_, _, _ = resolveConfig([]*Gate{g}, []*tierFile{tier}, nil)
	})
}
