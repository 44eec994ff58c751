package policy

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// celProgram is one checked CEL expression, planned once per cost limit it
// runs under (a hook's limit and a command's differ), and the least it can
// cost by cel-go's estimate.
type celProgram struct {
	env     *cel.Env
	ast     *cel.Ast
	minCost uint64
	mu      sync.Mutex
	planned map[uint64]cel.Program
}

// newCELProgram estimates ast's cost and plans it without a cost limit,
// so that a problem in planning is found at compile time.
func newCELProgram(env *cel.Env, ast *cel.Ast) (*celProgram, error) {
	est, err := env.EstimateCost(ast, noSizes{})
	if err != nil {
		return nil, fmt.Errorf("estimate cost: %w", err)
	}
	p := &celProgram{env: env, ast: ast, minCost: est.Min, planned: map[uint64]cel.Program{}}
	if _, err := p.program(0); err != nil {
		return nil, err
	}
	return p, nil
}

// noSizes is a cost estimator that knows nothing more than the checker:
// the input's sizes are unknown, so only literals bound an estimate.
type noSizes struct{}

func (noSizes) EstimateSize(checker.AstNode) *checker.SizeEstimate { return nil }
func (noSizes) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}

// sizedResults charges what cel-go's costs miss. Those key on the
// overload the checker chose, and an operand of type dyn (a let, the input)
// leaves none chosen: "a + a" costs 1 whatever a's length, and forty
// doublings of a let cost 120 while they fill memory or build a list of 2⁴¹
// items. So a call that makes a string or bytes costs one unit per byte it
// made, and a list concatenation the size of its smaller operand: a macro
// appending one item at a time pays 1 a step, a doubling pays the list.
type sizedResults struct{}

func (sizedResults) CallCost(function, _ string, args []ref.Val, result ref.Val) *uint64 {
	var n int64
	switch x := result.(type) {
	case types.String:
		n = int64(len(x))
	case types.Bytes:
		n = int64(len(x))
	case traits.Lister:
		if function != "_+_" || len(args) != 2 {
			return nil
		}
		n = min(listSize(args[0]), listSize(args[1]))
	default:
		return nil
	}
	cost := 1 + uint64(max(n, 0))
	return &cost
}

// listSize is v's size when v is a list, else 0.
func listSize(v ref.Val) int64 {
	if l, ok := v.(traits.Lister); ok {
		n, _ := l.Size().Value().(int64)
		return n
	}
	return 0
}

// program is p planned to stop once it has cost more than limit; with
// limit 0, planned without tracking its cost.
func (p *celProgram) program(limit uint64) (cel.Program, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if prg, ok := p.planned[limit]; ok {
		return prg, nil
	}
	opts := []cel.ProgramOption{cel.EvalOptions(cel.OptOptimize), cel.InterruptCheckFrequency(256)}
	if limit > 0 {
		opts = append(opts, cel.CostTracking(sizedResults{}), cel.CostLimit(limit))
	}
	prg, err := p.env.Program(p.ast, opts...)
	if err != nil {
		return nil, err
	}
	p.planned[limit] = prg
	return prg, nil
}

// celBudget is one evaluation's cost limit, spent by every expression the
// policy runs and by the conversion of its results. No expression runs
// past the limit, and the policy stops once its total passes it. A zero
// limit is none: nothing is tracked or charged.
type celBudget struct {
	mu    sync.Mutex
	limit uint64
	spent uint64
}

// over is the error of a policy stopped at its cost limit, at where.
func (b *celBudget) over(where string) error {
	return fmt.Errorf("%s: %w", where, &boundError{ReasonCELCost,
		fmt.Sprintf("the policy's cost passed its limit of %d (limits cel_cost)", b.limit)})
}

// charge spends n of the budget, and fails once the total passes the limit.
func (b *celBudget) charge(n uint64, where string) error {
	if b.limit == 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.spent > math.MaxUint64-n {
		b.spent = math.MaxUint64
	} else {
		b.spent += n
	}
	if b.spent > b.limit {
		return b.over(where)
	}
	return nil
}

// eval runs e on vars under the budget; errors are located at e.
func (b *celBudget) eval(ctx context.Context, e celExpr, vars map[string]any) (ref.Val, error) {
	if err := b.charge(0, e.where); err != nil {
		return nil, err
	}
	prg, err := e.prog.program(b.limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.where, err)
	}
	v, det, err := prg.ContextEval(ctx, vars)
	var cancelled interpreter.EvalCancelledError
	if errors.As(err, &cancelled) && cancelled.Cause == interpreter.CostLimitExceeded {
		return nil, b.over(e.where)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.where, err)
	}
	if c := det.ActualCost(); c != nil {
		if err := b.charge(*c, e.where); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// exprs lists every expression of the policy.
func (p *celPolicy) exprs() []*celExpr {
	var out []*celExpr
	for i := range p.lets {
		out = append(out, &p.lets[i])
	}
	for i := range p.violations {
		out = append(out, &p.violations[i])
	}
	for _, rs := range [][]celReason{p.couldNotRun, p.notApplicable} {
		for i := range rs {
			out = append(out, &rs[i].when)
			if rs[i].msg != nil {
				out = append(out, rs[i].msg)
			}
		}
	}
	return out
}

// minCost is the least the policy's expressions can cost together by
// cel-go's estimate: over the limit, the policy is refused before it runs.
func (p *celPolicy) minCost() uint64 {
	var sum uint64
	for _, e := range p.exprs() {
		sum = min(sum+e.prog.minCost, math.MaxUint64/2)
	}
	return sum
}

// ExprCost is one CEL expression's least estimated cost, at its line.
type ExprCost struct {
	Line int
	Cost uint64
}

// CostsOver lists the expressions of p, a CEL policy whose cost is checked
// (a team's), whose estimated cost is over most; nil for any other policy.
func CostsOver(p Policy, most uint64) []ExprCost {
	cp, ok := p.(*celPolicy)
	if !ok || !cp.costed {
		return nil
	}
	var out []ExprCost
	for _, e := range cp.exprs() {
		if e.prog.minCost > most {
			out = append(out, ExprCost{Line: e.line, Cost: e.prog.minCost})
		}
	}
	return out
}
