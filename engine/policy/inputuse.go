package policy

import (
	"slices"
	"strings"

	celast "github.com/google/cel-go/common/ast"
	"github.com/open-policy-agent/opa/v1/ast"
)

// InputUse is what a compiled policy can read of its input, found in its
// syntax tree: the top-level keys it names (namespaces, "params", "schema"),
// or, when it uses the input in any other way (the whole document, a key it
// computes, `with input as`), any key at all.
//
// It is what makes a verdict reusable (see package verdictcache): a policy whose
// every read names a key, and only keys the verdict cache's key covers, gives
// the same result for the same values of those keys. Gate policies cannot
// call the clock, randomness, the network or the host (unsafeRego; CEL has no
// such functions), so their input is all they depend on.
type InputUse struct {
	Keys []string // sorted, without duplicates
	Any  bool     // it may read any key
}

// OnlyReads reports whether every key u reads is one of allowed.
func (u InputUse) OnlyReads(allowed []string) bool {
	if u.Any {
		return false
	}
	for _, k := range u.Keys {
		if !slices.Contains(allowed, k) {
			return false
		}
	}
	return true
}

// Usage is implemented by compiled policies that know their InputUse.
type Usage interface {
	InputUse() InputUse
}

// UseOf returns p's InputUse; a policy that cannot tell reads anything.
func UseOf(p Policy) InputUse {
	if u, ok := p.(Usage); ok {
		return u.InputUse()
	}
	return InputUse{Any: true}
}

// useCollector gathers the keys of an InputUse.
type useCollector struct {
	keys map[string]bool
	any  bool
}

func (c *useCollector) key(k string) {
	if c.keys == nil {
		c.keys = map[string]bool{}
	}
	c.keys[k] = true
}

func (c *useCollector) result() InputUse {
	u := InputUse{Any: c.any}
	for k := range c.keys {
		u.Keys = append(u.Keys, k)
	}
	slices.Sort(u.Keys)
	return u
}

// regoInputUse reads mod, a module after compilation (imports and bare
// `input` already resolved to references): every reference rooted at input
// must name its first key with a string.
func regoInputUse(mod *ast.Module) InputUse {
	var c useCollector
	ast.WalkRefs(mod, func(r ast.Ref) bool {
		if !r[0].Equal(ast.InputRootDocument) {
			return false
		}
		if len(r) < 2 {
			c.any = true
			return false
		}
		if s, ok := r[1].Value.(ast.String); ok {
			c.key(string(s))
		} else {
			c.any = true
		}
		return false
	})
	return c.result()
}

// celInputUse reads a checked CEL expression into c: every use of the
// variable input must select a field of it (input.files, has(input.files)).
func celInputUse(c *useCollector, e celast.Expr) {
	selected := map[int64]bool{}
	var idents []celast.Expr
	celast.PreOrderVisit(e, celast.NewExprVisitor(func(x celast.Expr) {
		switch x.Kind() {
		case celast.SelectKind:
			s := x.AsSelect()
			if op := s.Operand(); op.Kind() == celast.IdentKind && op.AsIdent() == "input" {
				selected[op.ID()] = true
				c.key(s.FieldName())
			}
		case celast.IdentKind:
			idents = append(idents, x)
		}
	}))
	for _, x := range idents {
		name := x.AsIdent()
		if name == "input" && !selected[x.ID()] {
			c.any = true
		} else if k, ok := strings.CutPrefix(name, "input."); ok {
			c.key(strings.SplitN(k, ".", 2)[0])
		}
	}
}
