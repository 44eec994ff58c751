package mutate

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Rego mutants are made on OPA's AST and written back by splicing the edited
// node's source span, so every other byte (and every line number) of the
// policy stays as the author wrote it.

// relationalFlips and equalityFlips map an infix operator's token to its
// mutant.
var (
	relationalFlips = map[string]string{"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
	equalityFlips   = map[string]string{"==": "!=", "!=": "=="}
)

type regoGen struct {
	src  []byte
	out  []Mutant
	seen map[string]bool
}

func regoMutants(file string, src []byte) ([]Mutant, error) {
	mod, err := ast.ParseModuleWithOpts(file, string(src), ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	g := &regoGen{src: src, seen: map[string]bool{}}
	for _, r := range mod.Rules {
		g.comparisons(r)
		ast.WalkBodies(r, func(b ast.Body) bool {
			for i, e := range b {
				g.bodyExpr(b, i, e)
			}
			return false
		})
		g.removeRule(r)
	}
	return g.out, nil
}

// splice records the mutant that replaces n bytes at offset off with repl;
// ctx is the expression shown as original and mutated text.
func (g *regoGen) splice(op string, row, off, n int, repl string, ctx *ast.Location) {
	if off < 0 || off+n > len(g.src) || ctx == nil || off < ctx.Offset || off+n > ctx.Offset+len(ctx.Text) {
		return
	}
	key := fmt.Sprintf("%d/%d/%s", off, n, repl)
	if g.seen[key] {
		return
	}
	g.seen[key] = true
	src := make([]byte, 0, len(g.src)+len(repl))
	src = append(append(append(src, g.src[:off]...), repl...), g.src[off+n:]...)
	rel := off - ctx.Offset
	text := string(ctx.Text)
	g.out = append(g.out, Mutant{Operator: op, Line: row, Original: oneLine(text),
		Mutated: oneLine(text[:rel] + repl + text[rel+n:]), Source: src})
}

// comparisons finds every infix comparison in r (bodies, heads and nested
// terms alike) and mutates its operator, the numbers in its operands and
// the strings it compares.
func (g *regoGen) comparisons(r *ast.Rule) {
	visit := func(op *ast.Term, operands []*ast.Term, ctx *ast.Location) {
		if op.Location == nil || ctx == nil {
			return
		}
		tok := string(op.Location.Text)
		if to, ok := relationalFlips[tok]; ok {
			g.splice(OpRelational, op.Location.Row, op.Location.Offset, len(tok), to, ctx)
		} else if to, ok := equalityFlips[tok]; ok {
			g.splice(OpEquality, op.Location.Row, op.Location.Offset, len(tok), to, ctx)
		} else {
			return
		}
		for _, t := range operands {
			g.numbers(t, ctx)
			if s, ok := t.Value.(ast.String); ok && t.Location != nil {
				repl := `""`
				if s == "" {
					repl = `"tausik-mutant"`
				}
				g.splice(OpString, t.Location.Row, t.Location.Offset, len(t.Location.Text), repl, ctx)
			}
		}
	}
	ast.NewGenericVisitor(func(x any) bool {
		switch x := x.(type) {
		case *ast.Expr:
			if ts, ok := x.Terms.([]*ast.Term); ok && len(ts) == 3 {
				visit(ts[0], ts[1:], x.Location)
			}
		case *ast.Term:
			if c, ok := x.Value.(ast.Call); ok && len(c) == 3 {
				visit(c[0], c[1:], x.Location)
			}
		}
		return false
	}).Walk(r)
}

// numbers moves each number in t (an operand of a comparison) by one.
func (g *regoGen) numbers(t *ast.Term, ctx *ast.Location) {
	ast.WalkTerms(t, func(x *ast.Term) bool {
		n, ok := x.Value.(ast.Number)
		if !ok || x.Location == nil {
			return false
		}
		f, ok := new(big.Rat).SetString(string(n))
		if !ok {
			return false
		}
		for _, d := range []int64{1, -1} {
			v := new(big.Rat).Add(f, big.NewRat(d, 1))
			text := v.RatString()
			if !v.IsInt() {
				text = v.FloatString(6)
				text = strings.TrimRight(strings.TrimRight(text, "0"), ".")
			}
			g.splice(OpNumber, x.Location.Row, x.Location.Offset, len(x.Location.Text), text, ctx)
		}
		return false
	})
}

// bodyExpr mutates one expression of a rule body (or of a nested body):
// negated, dropped, and its quantifier swapped.
func (g *regoGen) bodyExpr(b ast.Body, i int, e *ast.Expr) {
	loc := e.Location
	if loc == nil || len(e.With) > 0 {
		return
	}
	text := string(loc.Text)
	switch t := e.Terms.(type) {
	case *ast.SomeDecl:
		g.someToEvery(b, i, t)
		return
	case *ast.Every:
		g.everyToSome(e, t)
		return
	}
	if e.IsAssignment() || e.IsEquality() {
		return
	}
	if t, ok := e.Terms.(*ast.Term); ok && ast.Boolean(true).Equal(t.Value) {
		return // the body OPA makes for `x := value` and `x if true`
	}
	if e.Negated {
		rest := strings.TrimLeft(strings.TrimPrefix(text, "not"), " \t")
		g.splice(OpNegate, loc.Row, loc.Offset, len(text)-len(rest), "", loc)
	} else {
		g.splice(OpNegate, loc.Row, loc.Offset, 0, "not ", loc)
	}
	g.splice(OpDrop, loc.Row, loc.Offset, len(text), "true", loc)
}

// someToEvery turns `some x in xs` and the rest of its body into
// `every x in xs { rest }`.
func (g *regoGen) someToEvery(b ast.Body, i int, sd *ast.SomeDecl) {
	e := b[i]
	if len(sd.Symbols) != 1 || i == len(b)-1 {
		return
	}
	if c, ok := sd.Symbols[0].Value.(ast.Call); !ok || len(c) == 0 || !strings.HasPrefix(c[0].String(), "internal.member_") {
		return
	}
	last := b[len(b)-1].Location
	if last == nil || last.Offset < e.Location.Offset {
		return
	}
	end := last.Offset + len(last.Text)
	var rest []string
	for _, x := range b[i+1:] {
		if x.Location == nil {
			return
		}
		rest = append(rest, string(x.Location.Text))
	}
	decl := strings.TrimPrefix(string(e.Location.Text), "some ")
	repl := "every " + decl + " { " + strings.Join(rest, "; ") + " }"
	span := &ast.Location{Row: e.Location.Row, Offset: e.Location.Offset, Text: g.src[e.Location.Offset:end]}
	g.splice(OpQuantifier, e.Location.Row, e.Location.Offset, end-e.Location.Offset, repl, span)
}

// everyToSome turns `every x in xs { body }` into `some x in xs; body`.
func (g *regoGen) everyToSome(e *ast.Expr, ev *ast.Every) {
	if ev.Value == nil || ev.Value.Location == nil || ev.Domain == nil || ev.Domain.Location == nil {
		return
	}
	decl := string(ev.Value.Location.Text)
	if ev.Key != nil && ev.Key.Location != nil {
		decl = string(ev.Key.Location.Text) + ", " + decl
	}
	parts := []string{"some " + decl + " in " + string(ev.Domain.Location.Text)}
	for _, x := range ev.Body {
		if x.Location == nil || x.Generated {
			continue
		}
		parts = append(parts, string(x.Location.Text))
	}
	g.splice(OpQuantifier, e.Location.Row, e.Location.Offset, len(e.Location.Text), strings.Join(parts, "; "), e.Location)
}

// removeRule deletes the whole rule r.
func (g *regoGen) removeRule(r *ast.Rule) {
	loc := r.Location
	if loc == nil {
		return
	}
	n := len(loc.Text)
	if r.Default {
		// A default rule's location covers the keyword only: take its line.
		n = strings.IndexByte(string(g.src[loc.Offset:]), '\n')
		if n < 0 {
			n = len(g.src) - loc.Offset
		}
	}
	text := string(g.src[loc.Offset : loc.Offset+n])
	head, _, _ := strings.Cut(text, "\n")
	key := fmt.Sprintf("rule/%d", loc.Offset)
	if g.seen[key] {
		return
	}
	g.seen[key] = true
	src := append(append([]byte{}, g.src[:loc.Offset]...), g.src[loc.Offset+n:]...)
	g.out = append(g.out, Mutant{Operator: OpRemoveRule, Line: loc.Row, Original: oneLine(head), Mutated: "(rule removed)", Source: src})
}
