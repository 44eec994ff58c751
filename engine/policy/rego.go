package policy

import (
	"context"
	"fmt"
	"runtime"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/regoshard"
)

// Output rules a Rego gate policy may define. violations is required; all
// three must be multi-value rules ("violations contains v if { … }").
const (
	ruleViolations    = "violations"
	ruleNotApplicable = "not_applicable"
	ruleCouldNotRun   = "could_not_run"
)

// unsafeRego are builtins a gate policy may not call: a verdict must depend on
// the facts alone, not on the clock, randomness, the network or the host.
var unsafeRego = map[string]struct{}{
	"http.send": {}, "net.lookup_ip_addr": {}, "opa.runtime": {}, "time.now_ns": {},
	"rand.intn": {}, "uuid.rfc4122": {}, "io.jwt.decode_verify": {}, "trace": {},
}

// regoPolicy is a prepared Rego gate policy.
type regoPolicy struct {
	file  string
	query rego.PreparedEvalQuery // the whole policy
	// split, when the violations rule is split (regoshard), evaluates it
	// in parts at once (bindings); nil otherwise.
	split *regoShards
	rules map[string]*ast.Location // output rule → where it is defined
	use   InputUse
}

// RegoPackage is the package a gate's policy.rego must declare.
func RegoPackage(gate string) string { return "tausik.gates." + gate }

// compileRego parses, compiles, checks and prepares a gate's policy.rego. file
// names the policy in diagnostics.
func compileRego(ctx context.Context, gate, file string, src []byte, d *diag.Diagnostics) *regoPolicy {
	mod, err := ast.ParseModuleWithOpts(file, string(src), ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		addRegoErrors(d, file, err)
		return nil
	}
	want := "data." + RegoPackage(gate)
	if got := mod.Package.Path.String(); got != want {
		d.Add(file, mod.Package.Location.Row, "package must be %s, got %s", strings.TrimPrefix(want, "data."), strings.TrimPrefix(got, "data."))
		return nil
	}
	if loc, found := regoshard.Reserved(mod); found {
		d.Add(file, loc.Row, "%s is a name tausik's evaluation reserves; rename it", regoshard.Builtin)
		return nil
	}
	c, shards := compileRegoModule(file, mod, d)
	if c == nil {
		return nil
	}
	// The split module holds every rule of mod, changed only by filter calls
	// that read nothing: what it reads of the input is what mod reads
	// (TestShardedInputUse holds the two together).
	p := &regoPolicy{file: file, rules: map[string]*ast.Location{}, use: regoInputUse(c.Modules[file])}
	for _, r := range mod.Rules {
		name := r.Head.Ref().String()
		switch name {
		case ruleViolations, ruleNotApplicable, ruleCouldNotRun:
		default:
			continue
		}
		if r.Head.RuleKind() != ast.MultiValue || len(r.Head.Ref()) != 1 {
			d.Add(file, r.Location.Row, "%s must be a multi-value rule (%s contains x if { … })", name, name)
			continue
		}
		if p.rules[name] == nil {
			p.rules[name] = r.Location
		}
	}
	if p.rules[ruleViolations] == nil {
		d.Add(file, mod.Package.Location.Row, "the policy must define %q (violations contains v if { … })", ruleViolations)
	}
	if len(d.Items) > 0 {
		return nil
	}
	checkRegoShapes(c, gate, p, d)
	if len(d.Items) > 0 {
		return nil
	}
	var q []string
	for _, name := range []string{ruleViolations, ruleNotApplicable, ruleCouldNotRun} {
		if p.rules[name] != nil {
			q = append(q, fmt.Sprintf("%s = %s.%s", name, want, name))
		}
	}
	if err := p.prepare(ctx, c, q, shards); err != nil {
		addRegoErrors(d, file, err)
		return nil
	}
	return p
}

// compileRegoModule compiles mod with its violations rule split into one
// shard per core when regoshard finds that sound (shards > 1), else as
// written; nil when mod does not compile. A split module that does not
// compile is compiled again as written, so that the diagnostics are those
// of the author's source and nothing else.
func compileRegoModule(file string, mod *ast.Module, d *diag.Diagnostics) (c *ast.Compiler, shards int) {
	newCompiler := func() *ast.Compiler {
		return ast.NewCompiler().WithUnsafeBuiltins(unsafeRego).WithBuiltins(regoBuiltins())
	}
	if n := runtime.GOMAXPROCS(0); n > 1 {
		if split, ok := regoshard.Split(mod, ruleViolations); ok {
			c = newCompiler()
			if c.Compile(map[string]*ast.Module{file: split}); !c.Failed() {
				return c, n
			}
		}
	}
	c = newCompiler()
	if c.Compile(map[string]*ast.Module{file: mod}); c.Failed() {
		addRegoErrors(d, file, c.Errors)
		return nil, 0
	}
	return c, 1
}

// prepare prepares p's query of the output rules q on c, the whole one
// (its shard filter holds everything), and with shards > 1 readies one
// query per shard: shard 0's has every output rule, the others'
// violations alone. Those are prepared on the first evaluation that splits
// (most never do: a fixture's input, a mutant's), keeping the cost of a
// compilation that of one query.
func (p *regoPolicy) prepare(ctx context.Context, c *ast.Compiler, q []string, shards int) error {
	prep := func(ctx context.Context, query string, i, n int) (rego.PreparedEvalQuery, error) {
		return rego.New(rego.Compiler(c), rego.Query(query), rego.StrictBuiltinErrors(true), regoshard.Function(i, n), pathMatchFunction()).PrepareForEval(ctx)
	}
	whole := strings.Join(q, "; ")
	var err error
	if p.query, err = prep(ctx, whole, 0, 1); err != nil || shards < 2 {
		return err
	}
	p.split = &regoShards{prepare: func(ctx context.Context) ([]rego.PreparedEvalQuery, error) {
		out := make([]rego.PreparedEvalQuery, shards)
		for i := range out {
			query := q[0] // violations
			if i == 0 {
				query = whole
			}
			var perr error
			if out[i], perr = prep(ctx, query, i, shards); perr != nil {
				return nil, perr
			}
		}
		return out, nil
	}}
	return nil
}

// checkRegoShapes uses the type checker's view of each output rule to refuse,
// before anything runs, a policy whose results can only have the wrong shape.
func checkRegoShapes(c *ast.Compiler, gate string, p *regoPolicy, d *diag.Diagnostics) {
	for name, loc := range p.rules {
		ref := ast.MustParseRef("data." + RegoPackage(gate) + "." + name)
		set, ok := c.TypeEnv.Get(ref).(*types.Set)
		if !ok {
			continue
		}
		elem := set.Of()
		if name == ruleViolations {
			if msg := violationTypeProblem(elem); msg != "" {
				d.Add(p.file, loc.Row, "%s: %s", name, msg)
			}
			continue
		}
		if msg := reasonTypeProblem(elem); msg != "" {
			d.Add(p.file, loc.Row, "%s: %s", name, msg)
		}
	}
}

func violationTypeProblem(t types.Type) string {
	switch x := t.(type) {
	case types.Any:
		for _, alt := range x {
			if msg := violationTypeProblem(alt); msg != "" {
				return msg
			}
		}
		return ""
	case *types.Object:
		known := map[string]bool{"msg": true, "file": true, "line": true, "rule": true, "detector": true, "kind": true, "ref": true,
			"key": true, "quantity": true, "sources": true, "severity": true}
		hasMsg := false
		for _, sp := range x.StaticProperties() {
			k, _ := sp.Key.(string)
			if !known[k] {
				return fmt.Sprintf("a violation has unknown key %q (known: %s)", k, violationKeys)
			}
			hasMsg = hasMsg || k == "msg"
		}
		if !hasMsg && x.DynamicProperties() == nil {
			return "a violation needs a msg"
		}
		return ""
	}
	if types.Compare(t, types.A) == 0 {
		return ""
	}
	return fmt.Sprintf("a violation must be an object {msg, file?, line?, rule?}, not %v", t)
}

func reasonTypeProblem(t types.Type) string {
	switch x := t.(type) {
	case types.Any:
		for _, alt := range x {
			if msg := reasonTypeProblem(alt); msg != "" {
				return msg
			}
		}
		return ""
	case types.String, *types.Object:
		return ""
	}
	if types.Compare(t, types.A) == 0 {
		return ""
	}
	return fmt.Sprintf("a reason must be a code string or {code, msg}, not %v", t)
}

// addRegoErrors turns OPA errors into diagnostics with their own locations.
func addRegoErrors(d *diag.Diagnostics, file string, err error) {
	if errs, ok := err.(ast.Errors); ok {
		for _, e := range errs {
			f, line := file, 0
			if e.Location != nil {
				if e.Location.File != "" {
					f = e.Location.File
				}
				line = e.Location.Row
			}
			d.Add(f, line, "%s: %s", e.Code, e.Message)
		}
		return
	}
	d.Add(file, 0, "%v", err)
}

// Eval implements Policy.
func (p *regoPolicy) Eval(ctx context.Context, in *Input) (Result, error) {
	terms, err := in.RegoTerms()
	if err != nil {
		return Result{}, err
	}
	params, err := ast.InterfaceToValue(in.Params)
	if err != nil {
		return Result{}, fmt.Errorf("params: %w", err)
	}
	obj := ast.NewObject(append(terms[:len(terms):len(terms)], [2]*ast.Term{ast.StringTerm("params"), ast.NewTerm(params)})...)
	b, err := p.bindings(ctx, obj)
	if err != nil {
		return Result{}, err
	}
	var out Result
	if out.Violations, err = regoList(b[ruleViolations], p.where(ruleViolations), toViolation, termViolation); err != nil {
		return Result{}, err
	}
	if out.NotApplicable, err = regoList(b[ruleNotApplicable], p.where(ruleNotApplicable), toReason, nil); err != nil {
		return Result{}, err
	}
	if out.CouldNotRun, err = regoList(b[ruleCouldNotRun], p.where(ruleCouldNotRun), toReason, nil); err != nil {
		return Result{}, err
	}
	sortResult(&out)
	return out, nil
}

func (p *regoPolicy) InputUse() InputUse { return p.use }

func (p *regoPolicy) where(rule string) string {
	if loc := p.rules[rule]; loc != nil {
		return fmt.Sprintf("%s:%d: %s", p.file, loc.Row, rule)
	}
	return p.file + ": " + rule
}

// regoList converts a rule's value (a set; resultTerm as the query leaves
// it, or the Go API's list), each element by fast when it takes it, else by
// conv on its plain form.
func regoList[T any](v any, where string, conv func(any) (T, error), fast func(ast.Value) (T, bool)) ([]T, error) {
	if t, ok := v.(resultTerm); ok {
		set, isSet := t.Value.(ast.Set)
		if !isSet {
			plain, err := ast.JSON(t.Value)
			if err != nil {
				return nil, &shapeError{where, err.Error()}
			}
			return regoList(plain, where, conv, nil)
		}
		out := make([]T, 0, set.Len())
		err := set.Iter(func(e *ast.Term) error {
			if fast != nil {
				if x, ok := fast(e.Value); ok {
					out = append(out, x)
					return nil
				}
			}
			plain, err := ast.JSON(e.Value)
			if err != nil {
				return &shapeError{where, err.Error()}
			}
			x, err := conv(plainRego(plain))
			if err != nil {
				return &shapeError{where, err.Error()}
			}
			out = append(out, x)
			return nil
		})
		if err != nil {
			return nil, err
		}
		return out, nil
	}
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, &shapeError{where, "must be a set"}
	}
	out := make([]T, 0, len(list))
	for _, e := range list {
		x, err := conv(plainRego(e))
		if err != nil {
			return nil, &shapeError{where, err.Error()}
		}
		out = append(out, x)
	}
	return out, nil
}

// plainRego turns the Go API's json.Number values into int64 or float64.
func plainRego(v any) any {
	switch x := v.(type) {
	case interface{ Int64() (int64, error) }:
		if i, err := x.Int64(); err == nil {
			return i
		}
		if f, ok := x.(interface{ Float64() (float64, error) }); ok {
			n, _ := f.Float64()
			return n
		}
	case map[string]any:
		for k, e := range x {
			x[k] = plainRego(e)
		}
	case []any:
		for i, e := range x {
			x[i] = plainRego(e)
		}
	}
	return v
}

// CompileRego compiles gate's Rego policy file, recording problems in d; nil
// when it does not compile.
func CompileRego(ctx context.Context, gate, file string, src []byte, d *diag.Diagnostics) Policy {
	if p := compileRego(ctx, gate, file, src, d); p != nil {
		return p
	}
	return nil
}
