package policy

import (
	"context"
	"fmt"
	"regexp"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/ext"
	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/internal/pathpat"
	"github.com/tausik/tausik/internal/yamlread"
)

// A CEL gate policy (policy.cel.yaml) is a set of named expressions over the
// variable `input` (the facts document plus `input.params`):
//
//	let:                     # optional helpers, in order; later ones may use earlier ones
//	  big: input.files.files.filter(f, f.lines > input.params.max_lines)
//	could_not_run:           # optional: reason codes whose `when` is true
//	  - code: files_unavailable
//	    when: input.files.status != "ok"
//	    msg: '"cannot read files: " + input.files.reason'   # optional CEL string
//	not_applicable: [...]    # same shape as could_not_run
//	violations:              # required: each expr yields a list of {msg, file?, line?, rule?}
//	  - rule: too_long
//	    expr: big.map(f, {"msg": f.path + " is too long", "file": f.path})
type celPolicy struct {
	lets          []celExpr
	couldNotRun   []celReason
	notApplicable []celReason
	violations    []celExpr
	use           InputUse
	// costed runs the policy under its cel_cost limit: a team policy's.
	// cel-go's cost tracker is quadratic in a comprehension's length (its
	// stack search), 16 times the CPU of filesize on 10,000 files, so the
	// built-in policies, fixed when the binary is built, run without it,
	// bounded by the deadline and the heap budget alone.
	costed bool
}

type celExpr struct {
	name  string // let name or violation rule
	prog  *celProgram
	line  int    // where the expression starts in the policy file
	where string // file:line for runtime errors
}

type celReason struct {
	code string
	when celExpr
	msg  *celExpr
}

// Compiled on first use, not at every process start (docs/performance.md).
var celNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z_][a-z0-9_]*$`) })

// celBaseEnv is the environment every CEL policy starts from; besides the
// standard extensions it has path_match(pattern, path), the path pattern
// language of docs/paths.md (package pathpat), so a policy matches config
// patterns exactly as the engine and the runners do.
func celBaseEnv() (*cel.Env, error) {
	return cel.NewEnv(
		cel.Variable("input", cel.DynType),
		cel.OptionalTypes(),
		ext.Strings(), ext.Lists(), ext.Sets(), ext.Math(), ext.Bindings(),
		cel.Function("path_match", cel.Overload("path_match_string_string",
			[]*cel.Type{cel.StringType, cel.StringType}, cel.BoolType,
			cel.BinaryBinding(func(pattern, p ref.Val) ref.Val {
				ps, ok1 := pattern.(types.String)
				s, ok2 := p.(types.String)
				return types.Bool(ok1 && ok2 && pathpat.Match(string(ps), string(s)))
			}))),
	)
}

// compileCEL parses and compiles a gate's policy.cel.yaml.
func compileCEL(file string, src []byte, d *diag.Diagnostics) *celPolicy {
	n0 := len(d.Items)
	r := yamlread.Reader{File: file, D: d}
	root := r.Parse(src)
	if root == nil {
		return nil
	}
	f := r.Fields(root, "policy.cel.yaml", "let", "could_not_run", "not_applicable", "violations")
	r.Require(root, f, "policy.cel.yaml", "violations")
	env, err := celBaseEnv()
	if err != nil {
		d.Add(file, 0, "cel environment: %v", err)
		return nil
	}
	c := celCompiler{r: r, file: file, use: &useCollector{}}
	p := &celPolicy{}
	for _, kv := range r.Pairs(f["let"], "let") {
		k, v := kv[0], kv[1]
		if !celNameRE().MatchString(k.Value) || k.Value == "input" {
			d.Add(file, k.Line, "let name %q must match %s and not be \"input\"", k.Value, celNameRE())
			continue
		}
		e, ok := c.compile(env, v, "let."+k.Value, nil)
		if !ok {
			continue
		}
		e.name = k.Value
		p.lets = append(p.lets, e)
		if env, err = env.Extend(cel.Variable(k.Value, cel.DynType)); err != nil {
			d.Add(file, k.Line, "let %s: %v", k.Value, err)
		}
	}
	p.couldNotRun = c.reasons(env, f["could_not_run"], "could_not_run")
	p.notApplicable = c.reasons(env, f["not_applicable"], "not_applicable")
	if n := f["violations"]; n != nil {
		if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
			d.Add(file, n.Line, "violations must be a non-empty list of {rule, expr}")
		} else {
			for i, item := range n.Content {
				what := fmt.Sprintf("violations[%d]", i)
				vf := r.Fields(item, what, "rule", "expr")
				r.Require(item, vf, what, "rule", "expr")
				rule := r.Str(vf["rule"], what+".rule")
				if vf["rule"] != nil && !celNameRE().MatchString(rule) {
					d.Add(file, vf["rule"].Line, "%s.rule %q must match %s", what, rule, celNameRE())
				}
				if vf["expr"] == nil {
					continue
				}
				e, ok := c.compile(env, vf["expr"], what+".expr", isListType)
				if ok {
					e.name = rule
					p.violations = append(p.violations, e)
				}
			}
		}
	}
	if len(d.Items) > n0 {
		return nil
	}
	p.use = c.use.result()
	return p
}

type celCompiler struct {
	r    yamlread.Reader
	file string
	use  *useCollector // what the compiled expressions read of input
}

func (c celCompiler) reasons(env *cel.Env, n *yaml.Node, what string) []celReason {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		c.r.D.Add(c.file, n.Line, "%s must be a list of {code, when, msg?}", what)
		return nil
	}
	var out []celReason
	for i, item := range n.Content {
		w := fmt.Sprintf("%s[%d]", what, i)
		f := c.r.Fields(item, w, "code", "when", "msg")
		c.r.Require(item, f, w, "code", "when")
		code := c.r.Str(f["code"], w+".code")
		if f["code"] != nil && !reasonCodeRE().MatchString(code) {
			c.r.D.Add(c.file, f["code"].Line, "%s.code %q must match %s", w, code, reasonCodeRE())
		}
		if f["when"] == nil {
			continue
		}
		when, ok := c.compile(env, f["when"], w+".when", isBoolType)
		rs := celReason{code: code, when: when}
		if f["msg"] != nil {
			msg, mok := c.compile(env, f["msg"], w+".msg", isStringType)
			ok = ok && mok
			rs.msg = &msg
		}
		if ok {
			out = append(out, rs)
		}
	}
	return out
}

// compile compiles the CEL text in node n, checks its type with check, and
// records problems at the YAML line where the expression's line lies.
func (c celCompiler) compile(env *cel.Env, n *yaml.Node, what string, check func(*cel.Type) bool) (celExpr, bool) {
	src := c.r.Str(n, what)
	if n.Kind != yaml.ScalarNode {
		return celExpr{}, false
	}
	base := n.Line
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		base++ // block scalars start on the line after the indicator
	}
	ast, iss := env.Compile(src)
	if iss.Err() != nil {
		for _, e := range iss.Errors() {
			c.r.D.Add(c.file, base+e.Location.Line()-1, "%s: %s", what, e.Message)
		}
		return celExpr{}, false
	}
	celInputUse(c.use, ast.NativeRep().Expr())
	if check != nil && !check(ast.OutputType()) {
		c.r.D.Add(c.file, base, "%s: wrong result type %s", what, ast.OutputType())
		return celExpr{}, false
	}
	prog, err := newCELProgram(env, ast)
	if err != nil {
		c.r.D.Add(c.file, base, "%s: %v", what, err)
		return celExpr{}, false
	}
	return celExpr{prog: prog, line: base, where: fmt.Sprintf("%s:%d: %s", c.file, base, what)}, true
}

func isDyn(t *cel.Type) bool {
	return t.Kind() == types.DynKind || t.Kind() == types.AnyKind || t.Kind() == types.TypeParamKind
}

func isBoolType(t *cel.Type) bool   { return isDyn(t) || t.Kind() == types.BoolKind }
func isStringType(t *cel.Type) bool { return isDyn(t) || t.Kind() == types.StringKind }

// isListType accepts a list whose elements could be violation objects.
func isListType(t *cel.Type) bool {
	if isDyn(t) {
		return true
	}
	if t.Kind() != types.ListKind {
		return false
	}
	ps := t.Parameters()
	return len(ps) == 0 || isDyn(ps[0]) || ps[0].Kind() == types.MapKind
}

func (p *celPolicy) InputUse() InputUse { return p.use }

// Eval implements Policy. Lets are evaluated lazily, at most once, when an
// expression first reads them; could_not_run is evaluated first and, when a
// reason fires, decides the outcome without touching the facts that are
// missing. Every expression and the conversion of the violations spend one
// cost budget (limits cel_cost): past it, the error is a *boundError.
func (p *celPolicy) Eval(ctx context.Context, in *Input) (Result, error) {
	b := &celBudget{}
	if p.costed {
		b.limit = limitsFrom(ctx).CELCost
	}
	if least := p.minCost(); p.costed && least > b.limit {
		return Result{}, &boundError{ReasonCELCost, fmt.Sprintf("the policy's estimated cost, at least %d, is over its limit of %d (limits cel_cost)", least, b.limit)}
	}
	plain, err := in.Plain()
	if err != nil {
		return Result{}, err
	}
	vars := map[string]any{"input": plain}
	var letErr error
	for _, l := range p.lets {
		var once sync.Once
		var val ref.Val
		vars[l.name] = func() ref.Val {
			once.Do(func() {
				v, err := b.eval(ctx, l, vars)
				if err != nil {
					if letErr == nil {
						letErr = err
					}
					v = types.WrapErr(err)
				}
				val = v
			})
			return val
		}
	}
	wrap := func(err error) error {
		if letErr != nil {
			return letErr
		}
		return err
	}
	var out Result
	if out.CouldNotRun, err = evalReasons(ctx, b, p.couldNotRun, vars); err != nil {
		return Result{}, wrap(err)
	}
	if len(out.CouldNotRun) > 0 {
		sortResult(&out)
		return out, nil
	}
	for _, v := range p.violations {
		val, err := b.eval(ctx, v, vars)
		if err != nil {
			return Result{}, wrap(err)
		}
		// A list made cheaply (a lazy concatenation doubled) costs one
		// unit of the budget per item to convert.
		if l, ok := val.(traits.Lister); ok && p.costed {
			n, _ := l.Size().Value().(int64)
			if err := b.charge(uint64(max(n, 0)), v.where); err != nil {
				return Result{}, err
			}
		}
		list, ok := celPlain(val).([]any)
		if !ok {
			return Result{}, &shapeError{v.where, "must yield a list of violations, got " + diag.Describe(celPlain(val))}
		}
		for _, e := range list {
			vi, err := toViolation(e)
			if err != nil {
				return Result{}, &shapeError{v.where, err.Error()}
			}
			if vi.Rule == "" {
				vi.Rule = v.name
			}
			out.Violations = append(out.Violations, vi)
		}
	}
	if out.NotApplicable, err = evalReasons(ctx, b, p.notApplicable, vars); err != nil {
		return Result{}, wrap(err)
	}
	sortResult(&out)
	return out, nil
}

func evalReasons(ctx context.Context, b *celBudget, rs []celReason, vars map[string]any) ([]Reason, error) {
	var out []Reason
	for _, r := range rs {
		v, err := b.eval(ctx, r.when, vars)
		if err != nil {
			return nil, err
		}
		ok, isBool := v.Value().(bool)
		if !isBool {
			return nil, &shapeError{r.when.where, "must yield a boolean, got " + diag.Describe(celPlain(v))}
		}
		if !ok {
			continue
		}
		reason := Reason{Code: r.code}
		if r.msg != nil {
			m, err := b.eval(ctx, *r.msg, vars)
			if err != nil {
				return nil, err
			}
			var isStr bool
			if reason.Msg, isStr = m.Value().(string); !isStr {
				return nil, &shapeError{r.msg.where, "must yield a string, got " + diag.Describe(celPlain(m))}
			}
		}
		out = append(out, reason)
	}
	return out, nil
}

// celPlain converts a CEL value to plain Go values (see facts.ToGeneric).
func celPlain(v ref.Val) any {
	switch x := v.(type) {
	case types.String:
		return string(x)
	case types.Int:
		return int64(x)
	case types.Uint:
		return int64(x)
	case types.Double:
		return float64(x)
	case types.Bool:
		return bool(x)
	case types.Null:
		return nil
	case traits.Lister:
		n, _ := x.Size().Value().(int64)
		out := make([]any, 0, n)
		for it := x.Iterator(); it.HasNext() == types.True; {
			out = append(out, celPlain(it.Next()))
		}
		return out
	case traits.Mapper:
		out := map[string]any{}
		for it := x.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			out[fmt.Sprint(k.Value())] = celPlain(x.Get(k))
		}
		return out
	}
	return v.Value()
}

// CompileCEL compiles a CEL policy file, recording problems in d; nil when
// it does not compile. A costed policy (a team's) runs under its cel_cost
// limit.
func CompileCEL(file string, src []byte, costed bool, d *diag.Diagnostics) Policy {
	if p := compileCEL(file, src, d); p != nil {
		p.costed = costed
		return p
	}
	return nil
}
