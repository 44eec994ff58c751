package engine

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// bindings evaluates p on the input obj and returns the output rules'
// values. A split policy runs its shards at once, one goroutine each, on
// the same input (OPA's values are only read by an evaluation), and their
// violations are united: the value the whole query gives (regoshard). With
// one core, or when a shard fails, the whole query runs instead, so the error reported is the one it gives, not
// whichever shard failed first (a cancelled ctx included: OPA notices it
// between steps, and may first meet another error).
func (p *regoPolicy) bindings(ctx context.Context, obj ast.Object) (rego.Vars, error) {
	if len(p.shards) > 1 && runtime.GOMAXPROCS(0) > 1 {
		if b, err := p.evalShards(ctx, obj); err == nil {
			return b, nil
		}
	}
	return p.evalQuery(ctx, p.query, obj)
}

func (p *regoPolicy) evalShards(ctx context.Context, obj ast.Object) (rego.Vars, error) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	got := make([]rego.Vars, len(p.shards))
	errs := make([]error, len(p.shards))
	var wg sync.WaitGroup
	for i := range p.shards {
		wg.Go(func() {
			if got[i], errs[i] = p.evalQuery(sctx, p.shards[i], obj); errs[i] != nil {
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
	if !ok {
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

// resultTerm is a query result left as OPA's term (rego.EvalGenerateJSON):
// regoList reads a set of violations from it directly instead of through
// the Go API's maps, which cost ~11 ms for the 3,700 violations of
// class_surface on the standard library.
type resultTerm struct{ *ast.Term }

func keepTerm(t *ast.Term, _ *rego.EvalContext) (any, error) { return resultTerm{t}, nil }

// termViolation reads a violation object whose keys are all known and
// whose values have the right types (a line a whole number that fits); ok
// is false for anything else, which goes the general way (toViolation and
// its error). TestTermViolationMatchesToViolation holds the two together.
func termViolation(v ast.Value) (out Violation, ok bool) {
	obj, isObj := v.(ast.Object)
	if !isObj || obj.Len() == 0 {
		return out, false
	}
	ok = true
	hasMsg := false
	obj.Foreach(func(k, e *ast.Term) {
		key, isStr := k.Value.(ast.String)
		if !isStr || !ok {
			ok = false
			return
		}
		if key == "line" {
			n, isNum := e.Value.(ast.Number)
			i, err := strconv.ParseInt(string(n), 10, 64)
			if ok = isNum && err == nil && i >= 0 && int64(int(i)) == i; ok {
				out.Line = int(i)
			}
			return
		}
		s, isStr := e.Value.(ast.String)
		if !isStr {
			ok = false
			return
		}
		switch key {
		case "msg":
			out.Msg, hasMsg, ok = string(s), true, s != ""
		case "file":
			out.File = string(s)
		case "rule":
			out.Rule = string(s)
		case "detector":
			out.Detector = string(s)
		case "kind":
			out.Kind = string(s)
		case "ref":
			out.Ref = string(s)
		default:
			ok = false
		}
	})
	return out, ok && hasMsg
}
