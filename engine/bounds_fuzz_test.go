package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/facts"
)

// FuzzBoundedPolicy: a generated comprehension, in Rego or CEL, of any
// depth and width, evaluated under tiny limits, comes back — with a verdict,
// a policy error or a bound's reason — and never panics. The watchdog is
// generous: it catches an evaluation that ignores its bounds, not a slow one.
func FuzzBoundedPolicy(f *testing.F) {
	f.Add(true, uint8(2), uint16(5000), uint8(0))
	f.Add(false, uint8(9), uint16(10), uint8(1))
	f.Add(true, uint8(1), uint16(60000), uint8(2))
	f.Add(false, uint8(40), uint16(2), uint8(3))
	f.Fuzz(func(t *testing.T, rego bool, depth uint8, width uint16, op uint8) {
		depth = depth%12 + 1
		lim := policy.Limits{EvalTimeout: 20 * time.Millisecond, EvalMemory: 32 << 20, CELCost: 100_000}
		var p policy.Policy
		d := &diag.Diagnostics{Kind: diag.ErrBundle}
		if rego {
			p = policy.CompileRego(context.Background(), "fz", "policy.rego", []byte(regoComprehension(int(depth), int(width), op)), d)
		} else {
			p = policy.CompileCEL("policy.cel.yaml", []byte(celComprehension(int(depth), int(width), op)), true, d) // costed, as a team policy
		}
		if p == nil {
			t.Fatalf("the generated policy does not compile: %v", d)
		}
		done := make(chan error, 1)
		go func() {
			_, err := policy.EvalBounded(policy.WithLimits(context.Background(), lim), p, policy.NewInput(map[string]any{"schema": facts.Schema}, map[string]any{}))
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil && strings.Contains(err.Error(), "panicked") {
				t.Fatal(err)
			}
		case <-time.After(lim.EvalTimeout + 20*time.Second):
			t.Fatalf("depth %d width %d op %d: still running far past its %v deadline", depth, width, op, lim.EvalTimeout)
		}
	})
}

// regoComprehension nests depth set comprehensions over numbers.range(1,
// width), combining the variables with op's operator.
func regoComprehension(depth, width int, op uint8) string {
	ops := []string{"+", "*", "-", "%"}
	body := "x0"
	var gens []string
	for i := range depth {
		gens = append(gens, fmt.Sprintf("some x%d in numbers.range(1, %d)", i, width))
		if i > 0 {
			body = fmt.Sprintf("(%s %s x%d)", body, ops[int(op)%len(ops)], i)
		}
	}
	return fmt.Sprintf("package tausik.gates.fz\n\nviolations contains {\"msg\": \"n\"} if count({%s | %s}) < 0\n", body, strings.Join(gens, "; "))
}

// celComprehension nests depth maps over a list of width numbers (the
// literal one, or doubled lets with op odd).
func celComprehension(depth, width int, op uint8) string {
	width = width%64 + 1
	items := make([]string, width)
	for i := range items {
		items[i] = fmt.Sprint(i)
	}
	var lets strings.Builder
	lets.WriteString("let:\n  l0: '[" + strings.Join(items, ", ") + "]'\n")
	list := "l0"
	if op%2 == 1 {
		for i := 1; i <= depth*4; i++ {
			fmt.Fprintf(&lets, "  l%d: l%d + l%d\n", i, i-1, i-1)
			list = fmt.Sprintf("l%d", i)
		}
	}
	expr := "x0"
	for i := depth - 1; i >= 0; i-- {
		expr = fmt.Sprintf("%s.map(x%d, %s)", list, i, expr)
	}
	return lets.String() + "violations:\n  - rule: r\n    expr: '[{\"msg\": string(size(" + expr + "))}].filter(v, false)'\n"
}
