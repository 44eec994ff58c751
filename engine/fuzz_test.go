package engine

import (
	"context"
	"testing"

	"github.com/tausik/tausik/engine/diag"
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
		d := &diag.Diagnostics{Kind: diag.ErrBundle}
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
