package policy

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// regoShards are the queries of a split policy's shards, prepared once,
// on first use; queries is nil when they could not be.
type regoShards struct {
	once    sync.Once
	prepare func(context.Context) ([]rego.PreparedEvalQuery, error)
	queries []rego.PreparedEvalQuery
}

// get prepares the shards' queries on first use. A failure is kept for
// good, and fails closed: the policy is then evaluated whole, as it would
// be on one core, only not faster (preparing a query the compiler already
// compiled fails only on what would fail the whole query too).
func (s *regoShards) get(ctx context.Context) []rego.PreparedEvalQuery {
	s.once.Do(func() {
		// Not cancelled with the evaluation that happens to come first:
		// the queries serve every later one.
		s.queries, _ = s.prepare(context.WithoutCancel(ctx))
	})
	return s.queries
}

// EnvShardMin is the smallest input, counted in items (see inputItems),
// whose evaluation a split policy runs on its shards; 0 splits every one.
// Below it the whole query runs: each shard repeats what its rules compute
// before the iteration it splits, and a query's fixed cost, which on a
// fixture-sized input outweighs what is split (policy mutate judged every
// mutant ~50% slower, split).
const EnvShardMin = "TAUSIK_SHARD_MIN"

const defaultShardMin = 1000

// shardMin reads EnvShardMin on every evaluation (a few hundred ns against
// the evaluation's milliseconds), so that a test can set it.
func shardMin() int {
	if n, err := strconv.Atoi(os.Getenv(EnvShardMin)); err == nil && n >= 0 {
		return n
	}
	return defaultShardMin
}

// inputItems counts the items of obj's values and of the collections they
// hold, one level down (input.surface.classes, input.files.files), up to
// limit: the size of the collections a policy iterates, read in O(number of
// namespaces and their keys).
func inputItems(obj ast.Object, limit int) int {
	n := 0
	size := func(v ast.Value) {
		switch x := v.(type) {
		case ast.Object:
			n += x.Len()
		case *ast.Array:
			n += x.Len()
		case ast.Set:
			n += x.Len()
		}
	}
	obj.Until(func(_, ns *ast.Term) bool {
		size(ns.Value)
		if o, ok := ns.Value.(ast.Object); ok {
			o.Until(func(_, child *ast.Term) bool {
				size(child.Value)
				return n >= limit
			})
		}
		return n >= limit
	})
	return n
}

// bindings evaluates p on the input obj and returns the output rules'
// values. A split policy on an input of at least shardMin items, with more
// than one core, runs its shards at once, one goroutine each, on the same
// input (OPA's values are only read by an evaluation), and their violations
// are united: the value the whole query gives (regoshard). Otherwise, or
// when a shard fails, the whole query runs, so the error reported is the one
// it gives, not whichever shard failed first (a cancelled ctx included: OPA
// notices it between steps, and may first meet another error).
func (p *regoPolicy) bindings(ctx context.Context, obj ast.Object) (rego.Vars, error) {
	if qs := p.shards(ctx, obj); qs != nil {
		if b, err := p.evalShards(ctx, qs, obj); err == nil {
			return b, nil
		}
	}
	return p.evalQuery(ctx, p.query, obj)
}

// shards is the queries p's evaluation of obj runs split, or nil when it
// runs whole: a policy not split, one core, an input under shardMin, or
// shards that could not be prepared.
func (p *regoPolicy) shards(ctx context.Context, obj ast.Object) []rego.PreparedEvalQuery {
	if p.split == nil || runtime.GOMAXPROCS(0) == 1 {
		return nil
	}
	if least := shardMin(); least > 0 && inputItems(obj, least) < least {
		return nil
	}
	return p.split.get(ctx)
}

// evalShards runs the shards' queries qs at once and unites their
// violations; the first error in shard order is the result when any fails.
func (p *regoPolicy) evalShards(ctx context.Context, qs []rego.PreparedEvalQuery, obj ast.Object) (rego.Vars, error) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	got := make([]rego.Vars, len(qs))
	errs := make([]error, len(qs))
	var wg sync.WaitGroup
	for i := range qs {
		wg.Go(func() {
			if got[i], errs[i] = p.evalQuery(sctx, qs[i], obj); errs[i] != nil {
				cancel() // the others' results are not used
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	set, ok := violationSet(got[0])
	for _, b := range got[1:] {
		part, isSet := violationSet(b)
		if ok = ok && isSet; ok {
			set = set.Union(part)
		}
	}
	if !ok { // defensive: Split admits only multi-value rules, whose value is a set
		return nil, fmt.Errorf("%s: a shard's %s is not a set", p.file, ruleViolations)
	}
	got[0][ruleViolations] = resultTerm{ast.NewTerm(set)}
	return got[0], nil
}

// violationSet is the violations set of a query's bindings.
func violationSet(b rego.Vars) (ast.Set, bool) {
	t, ok := b[ruleViolations].(resultTerm)
	if !ok {
		return nil, false
	}
	set, ok := t.Value.(ast.Set)
	return set, ok
}

// evalQuery runs one prepared query of p on obj.
func (p *regoPolicy) evalQuery(ctx context.Context, q rego.PreparedEvalQuery, obj ast.Object) (rego.Vars, error) {
	rs, err := q.Eval(ctx, rego.EvalParsedInput(obj), rego.EvalGenerateJSON(keepTerm))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.file, err)
	}
	if len(rs) != 1 {
		return nil, fmt.Errorf("%s: the policy query gave %d results, want 1", p.file, len(rs))
	}
	return rs[0].Bindings, nil
}
