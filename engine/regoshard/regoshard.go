// Package regoshard splits the evaluation of a Rego policy's multi-value
// output rule across shards that can run at once, each on its own query,
// with the same value once the shards' sets are united.
//
// Split rewrites each body of the rule so that, right after its first
// top-level iteration (`some k, x in coll`, `some x in coll`), it calls
// Builtin on the iteration's key (or element). Each shard's query is
// prepared with Function(i, n), whose Builtin holds only the bindings of
// shard i of n; a body without such an iteration is held by shard 0 alone
// (it calls Builtin on the constant 0). The bindings of a body's iteration
// are the same in every shard (Split refuses a module that calls a
// nondeterministic builtin), and each lands in exactly one shard, so the union of the
// shards' values is the rule's value. Function(0, 1) holds every binding:
// the rewritten policy evaluated whole.
package regoshard

import (
	"math/bits"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"
)

// Builtin is the name of the shard filter Split inserts. A policy may not
// name it itself (Reserved): its value depends on the query it runs in.
const Builtin = "__tausik_shard"

// decl declares Builtin to the compiler (ast.Compiler.WithBuiltins): it
// takes any term and holds or not.
var decl = &ast.Builtin{Name: Builtin, Decl: types.NewFunction(types.Args(types.A), types.B)}

// Decls is decl keyed by its name, as ast.Compiler.WithBuiltins takes it.
func Decls() map[string]*ast.Builtin { return map[string]*ast.Builtin{Builtin: decl} }

// Function is the rego option that implements Builtin for shard i of n:
// true for the keys shardOf maps to i.
func Function(i, n int) func(*rego.Rego) {
	f := &rego.Function{Name: Builtin, Decl: decl.Decl}
	return rego.Function1(f, func(_ rego.BuiltinContext, k *ast.Term) (*ast.Term, error) {
		return ast.InternedTerm(shardOf(k, n) == i), nil
	})
}

// shardOf maps a key to one of n shards. Any deterministic function would be
// sound; this one spreads an array's indices evenly (a whole number is its
// own hash) and mixes every other hash, whose low bits may not vary
// (Fibonacci hashing).
func shardOf(k *ast.Term, n int) int {
	if n <= 1 {
		return 0
	}
	h := uint64(k.Value.Hash())
	if _, isNum := k.Value.(ast.Number); !isNum {
		hi, _ := bits.Mul64(h, 0x9e3779b97f4a7c15)
		h = hi
	}
	return int(h % uint64(n))
}

// Reserved returns the location of the first term of mod that names
// Builtin, or nil: such a policy is refused, since what the name computes
// is the evaluation's business.
func Reserved(mod *ast.Module) (loc *ast.Location, found bool) {
	ast.WalkTerms(mod, func(t *ast.Term) bool {
		if v, ok := t.Value.(ast.Var); ok && v == Builtin && !found {
			loc, found = t.Location, true
		}
		return found
	})
	return loc, found
}

// Split returns a copy of mod whose rule name is sharded, or ok false when
// sharding it could change its value or would gain nothing; mod is not
// changed. Conditions, each needed for the union of the shards to be the
// rule's value:
//   - every rule called name is a plain multi-value rule (name contains v
//     if { … }): a set is the only value a union of shards rebuilds;
//   - nothing in the module can read the rule (references): a rule,
//     function or comprehension reading it would see, in each shard, the
//     shard's part only;
//   - the iteration split is a top-level expression of the body without
//     `with` (iteration): inside `not`, `every` or a comprehension, a
//     filter would change what that construct decides, not which bindings
//     the body has; under `with`, the key's value is not the one the rest
//     of the body sees;
//   - no builtin the module calls is nondeterministic (rand.intn,
//     http.send, time.now_ns, …; gate policies are refused most of them
//     anyway): the shards must see the same bindings before they filter;
//   - at least one body has such an iteration: otherwise shard 0 would do
//     the whole work and the others nothing.
func Split(mod *ast.Module, name string) (out *ast.Module, ok bool) {
	if references(mod, name) || nondeterministic(mod) {
		return nil, false
	}
	some := false
	for _, r := range mod.Rules {
		if !headNames(r.Head, name) {
			continue
		}
		if r.Head.RuleKind() != ast.MultiValue || len(r.Head.Ref()) != 1 || r.Else != nil {
			return nil, false
		}
		if _, _, has := iteration(r.Body); has {
			some = true
		}
	}
	if !some {
		return nil, false
	}
	out = mod.Copy()
	for _, r := range out.Rules {
		if !headNames(r.Head, name) {
			continue
		}
		at, key, has := iteration(r.Body)
		if !has {
			// A term of its own: IntNumberTerm's is interned, shared by
			// every module, and would take this rule's location.
			r.Body = insert(r.Body, 0, ast.NewTerm(ast.Number("0")).SetLocation(r.Body[0].Location), r.Body[0].Location)
			continue
		}
		r.Body = insert(r.Body, at+1, ast.NewTerm(key).SetLocation(r.Body[at].Location), r.Body[at].Location)
	}
	return out, true
}

// headNames reports whether h's reference starts with name (name contains …,
// or name.x contains …, which Split refuses to take apart).
func headNames(h *ast.Head, name string) bool {
	ref := h.Ref()
	return len(ref) > 0 && ref[0].Value.Compare(ast.Var(name)) == 0
}

// insert returns body with a call of Builtin on arg at index at.
func insert(body ast.Body, at int, arg *ast.Term, loc *ast.Location) ast.Body {
	call := ast.NewBuiltinExpr(ast.RefTerm(ast.VarTerm(Builtin).SetLocation(loc)).SetLocation(loc), arg)
	call.Location = loc
	out := make(ast.Body, 0, len(body)+1)
	out = append(out, body[:at]...)
	out = append(out, call)
	out = append(out, body[at:]...)
	for i, e := range out {
		e.Index = i
	}
	return out
}

// iteration finds the first top-level expression of body that iterates a
// collection (`some k, x in coll` or `some x in coll`) without `with`, and
// the variable that tells its bindings apart: the key when it is a named
// variable, else the element when that is one (`some _, x in coll`); a
// pattern (`some [a, b] in coll`) is passed over.
func iteration(body ast.Body) (at int, key ast.Var, ok bool) {
	for i, e := range body {
		sd, isSome := e.Terms.(*ast.SomeDecl)
		if !isSome || len(e.With) > 0 || e.Negated || len(sd.Symbols) != 1 {
			continue
		}
		call, isCall := sd.Symbols[0].Value.(ast.Call)
		if !isCall || len(call) < 3 {
			continue
		}
		op := call[0].Value
		var cands []*ast.Term
		switch {
		case op.Compare(ast.MemberWithKey.Ref()) == 0 && len(call) == 4:
			cands = call[1:3]
		case op.Compare(ast.Member.Ref()) == 0 && len(call) == 3:
			cands = call[1:2]
		default:
			continue
		}
		for _, c := range cands {
			if v, isVar := c.Value.(ast.Var); isVar && !v.IsWildcard() {
				return i, v, true
			}
		}
	}
	return 0, "", false
}

// references reports whether anything in mod other than the heads of the
// rules called name could read them: the bare name (a rule, function or
// comprehension referring to the rule; a local variable of that name is
// counted too, which only costs the sharding) or a reference into data that
// may reach data.<package>.<name> (data itself, the package, a computed key
// on the way, an import of one of those).
func references(mod *ast.Module, name string) bool {
	path := mod.Package.Path.Append(ast.StringTerm(name))
	found := false
	var vis *ast.GenericVisitor
	vis = ast.NewGenericVisitor(func(x any) bool {
		if found {
			return true
		}
		switch x := x.(type) {
		case *ast.Package:
			return true // its path names the package; no rule is read
		case *ast.Head:
			// The head's own name is the definition, not a read; anything
			// else in the head (a key, a value, a longer name) is walked.
			if ref := x.Ref(); len(ref) > 1 {
				for _, t := range ref {
					vis.Walk(t)
				}
			}
			for _, t := range x.Args {
				vis.Walk(t)
			}
			if x.Key != nil {
				vis.Walk(x.Key)
			}
			if x.Value != nil {
				vis.Walk(x.Value)
			}
			return true
		case ast.Var:
			found = string(x) == name
		case ast.Ref:
			found = mayReach(x, path)
		}
		return found
	})
	vis.Walk(mod)
	return found
}

// nondeterministic reports whether mod calls a builtin whose result may
// differ from one evaluation to the next.
func nondeterministic(mod *ast.Module) bool {
	found := false
	is := func(op ast.Ref) {
		if b := ast.BuiltinMap[op.String()]; b != nil && b.IsNondeterministic() {
			found = true
		}
	}
	ast.NewGenericVisitor(func(x any) bool {
		switch x := x.(type) {
		case *ast.Expr:
			if x.IsCall() {
				is(x.Operator())
			}
		case ast.Call:
			if op, ok := x[0].Value.(ast.Ref); ok {
				is(op)
			}
		}
		return found
	}).Walk(mod)
	return found
}

// mayReach reports whether ref, rooted at data, may name path or something
// holding it: each of its ground terms agrees with path's as far as both go.
func mayReach(ref, path ast.Ref) bool {
	if !ref.HasPrefix(ast.DefaultRootRef) {
		return false
	}
	for i := 1; i < len(ref) && i < len(path); i++ {
		if ref[i].IsGround() && !ref[i].Equal(path[i]) {
			return false
		}
	}
	return true
}
