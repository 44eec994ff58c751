package mutate

import (
	"fmt"
	"strings"

	"github.com/google/cel-go/common"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/parser"
	"gopkg.in/yaml.v3"
)

// CEL mutants are made on cel-go's parsed AST with macros left unexpanded
// (so `xs.all(x, p)` is a call named all, not a comprehension), unparsed
// back to CEL text and put back into the policy.cel.yaml document.

var celFlips = map[string]struct{ to, op string }{
	operators.Less: {operators.LessEquals, OpRelational}, operators.LessEquals: {operators.Less, OpRelational},
	operators.Greater: {operators.GreaterEquals, OpRelational}, operators.GreaterEquals: {operators.Greater, OpRelational},
	operators.Equals: {operators.NotEquals, OpEquality}, operators.NotEquals: {operators.Equals, OpEquality},
}

var celQuantifiers = map[string]string{"all": "exists", "exists": "all", "exists_one": "exists"}

// celEdit is one mutation site: which expression of the file, which node,
// which edit. show is the node whose text the report shows.
type celEdit struct {
	expr    int
	id      int64
	show    int64
	op      string
	variant int
}

func celMutants(src []byte) ([]Mutant, error) {
	_, exprs, entries, err := celDocument(src)
	whens := celWhens(src)
	if err != nil {
		return nil, err
	}
	p, err := parser.NewParser(parser.EnableOptionalSyntax(true))
	if err != nil {
		return nil, err
	}
	parse := func(text string) (*celast.AST, error) {
		a, iss := p.Parse(common.NewTextSource(text))
		if iss != nil && len(iss.GetErrors()) > 0 {
			return nil, fmt.Errorf("%w: %s", ErrSyntax, iss.ToDisplayString())
		}
		return a, nil
	}
	var out []Mutant
	lines := strings.Split(string(src), "\n")
	for k, n := range exprs {
		a, err := parse(n.Value)
		if err != nil {
			return nil, err
		}
		for _, ed := range celSites(k, a.Expr(), whens[n.Line]) {
			fresh, _ := parse(n.Value)
			m, ok := applyCEL(fresh, ed)
			if !ok {
				continue
			}
			text, err := parser.Unparse(fresh.Expr(), fresh.SourceInfo())
			if err != nil {
				continue
			}
			m.Line = celLine(n, lines, a.SourceInfo(), ed.id)
			if m.Source, err = celWith(src, k, text, -1, ""); err == nil {
				out = append(out, m)
			}
		}
	}
	for _, en := range entries {
		s, err := celWith(src, -1, "", en.index, en.list)
		if err == nil {
			out = append(out, Mutant{Operator: OpRemoveRule, Line: en.line, Original: en.name, Mutated: "(entry removed)", Source: s})
		}
	}
	return out, nil
}

type celEntry struct {
	list  string
	index int
	line  int
	name  string
}

// celDocument parses policy.cel.yaml and returns its expression scalars in
// document order (let values, reason whens, violation exprs) and
// its removable entries.
func celDocument(src []byte) (*yaml.Node, []*yaml.Node, []celEntry, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, nil, nil, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil, nil, fmt.Errorf("%w: policy.cel.yaml is not a mapping", ErrSyntax)
	}
	root := doc.Content[0]
	var exprs []*yaml.Node
	var entries []celEntry
	for i := 0; i+1 < len(root.Content); i += 2 {
		key, val := root.Content[i].Value, root.Content[i+1]
		switch key {
		case "let":
			for j := 1; j < len(val.Content); j += 2 {
				exprs = append(exprs, val.Content[j])
			}
		case "could_not_run", "not_applicable", "violations":
			for j, item := range val.Content {
				name := key + "[" + fmt.Sprint(j) + "]"
				for f := 0; f+1 < len(item.Content); f += 2 {
					switch k, v := item.Content[f].Value, item.Content[f+1]; k {
					case "when", "expr":
						exprs = append(exprs, v)
					case "rule", "code":
						name = k + ": " + v.Value
					}
				}
				entries = append(entries, celEntry{list: key, index: j, line: item.Line, name: name})
			}
		}
	}
	return &doc, exprs, entries, nil
}

// celWhens returns the lines of the reason conditions (`when:`), whose
// whole expression stands where a condition is expected.
func celWhens(src []byte) map[int]bool {
	out := map[int]bool{}
	var doc yaml.Node
	if yaml.Unmarshal(src, &doc) != nil || len(doc.Content) == 0 {
		return out
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i].Value; k != "could_not_run" && k != "not_applicable" {
			continue
		}
		for _, item := range root.Content[i+1].Content {
			for f := 0; f+1 < len(item.Content); f += 2 {
				if item.Content[f].Value == "when" {
					out[item.Content[f+1].Line] = true
				}
			}
		}
	}
	return out
}

// celWith returns src with expression scalar k set to text (double-quoted),
// or with entry index of list removed (k < 0). Folded scalars are written
// literal, which keeps their values exactly.
func celWith(src []byte, k int, text string, index int, list string) ([]byte, error) {
	doc, exprs, _, err := celDocument(src)
	if err != nil {
		return nil, err
	}
	if k >= 0 {
		exprs[k].Value, exprs[k].Style = text, yaml.DoubleQuotedStyle
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == list && index >= 0 {
			seq := root.Content[i+1]
			seq.Content = append(seq.Content[:index:index], seq.Content[index+1:]...)
		}
	}
	for _, n := range exprs {
		if n.Style&yaml.FoldedStyle != 0 {
			n.Style = yaml.LiteralStyle
		}
	}
	return yaml.Marshal(doc)
}

// celLine maps the node id of the expression in scalar n to a line of the
// file: the scalar's first line, plus the lines before the node's offset.
func celLine(n *yaml.Node, lines []string, info *celast.SourceInfo, id int64) int {
	base := n.Line
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		base++
	}
	r, ok := info.GetOffsetRange(id)
	if !ok {
		return base
	}
	off := int(r.Start)
	for i := base - 1; i < len(lines); i++ {
		l := len(strings.TrimSpace(lines[i])) + 1
		if off < l || i == len(lines)-1 {
			return i + 1
		}
		off -= l
	}
	return base
}

// celSites lists the edits of e in pre-order. boolPos says e stands where a
// condition is expected (so negating it makes sense).
func celSites(k int, e celast.Expr, boolPos bool) []celEdit {
	var out []celEdit
	add := func(id, show int64, op string, variant int) {
		out = append(out, celEdit{expr: k, id: id, show: show, op: op, variant: variant})
	}
	if boolPos {
		add(e.ID(), e.ID(), OpNegate, 0)
	}
	switch e.Kind() {
	case celast.CallKind:
		c := e.AsCall()
		fn := c.FunctionName()
		if f, ok := celFlips[fn]; ok {
			add(e.ID(), e.ID(), f.op, 0)
			for _, a := range c.Args() {
				celOperandSites(a, e.ID(), add)
			}
		}
		if fn == operators.LogicalAnd || fn == operators.LogicalOr {
			add(e.ID(), e.ID(), OpDrop, 0)
			add(e.ID(), e.ID(), OpDrop, 1)
		}
		if c.IsMemberFunction() && len(c.Args()) == 2 {
			if _, ok := celQuantifiers[fn]; ok {
				add(e.ID(), e.ID(), OpQuantifier, 0)
			}
			if fn == "filter" {
				add(e.ID(), e.ID(), OpDrop, 0)
			}
		}
		if c.IsMemberFunction() {
			out = append(out, celSites(k, c.Target(), false)...)
		}
		for i, a := range c.Args() {
			pred := fn == operators.LogicalAnd || fn == operators.LogicalOr || fn == operators.LogicalNot ||
				(fn == operators.Conditional && i == 0) ||
				(c.IsMemberFunction() && i == 1 && (fn == "all" || fn == "exists" || fn == "exists_one" || fn == "filter" || (fn == "map" && len(c.Args()) == 3)))
			if fn == operators.LogicalNot {
				pred = false // negating under a ! is the same as removing it
			}
			out = append(out, celSites(k, a, pred)...)
		}
	case celast.ListKind:
		for _, x := range e.AsList().Elements() {
			out = append(out, celSites(k, x, false)...)
		}
	case celast.MapKind:
		for _, en := range e.AsMap().Entries() {
			out = append(out, celSites(k, en.AsMapEntry().Value(), false)...)
		}
	case celast.SelectKind:
		out = append(out, celSites(k, e.AsSelect().Operand(), false)...)
	}
	return out
}

// celOperandSites adds the number and string edits of a comparison's operand.
func celOperandSites(a celast.Expr, show int64, add func(id, show int64, op string, variant int)) {
	switch a.Kind() {
	case celast.LiteralKind:
		switch a.AsLiteral().(type) {
		case types.Int, types.Uint, types.Double:
			add(a.ID(), show, OpNumber, 1)
			add(a.ID(), show, OpNumber, -1)
		case types.String:
			add(a.ID(), show, OpString, 0)
		}
	case celast.CallKind:
		switch a.AsCall().FunctionName() {
		case operators.Add, operators.Subtract, operators.Multiply, operators.Divide, operators.Negate:
			for _, x := range a.AsCall().Args() {
				celOperandSites(x, show, add)
			}
		}
	}
}

// applyCEL performs ed on a (a fresh parse) and returns the mutant's
// original and mutated text; ok is false when the edit does not apply.
func applyCEL(a *celast.AST, ed celEdit) (Mutant, bool) {
	fac := celast.NewExprFactory()
	var e, show celast.Expr
	celast.PostOrderVisit(a.Expr(), celast.NewExprVisitor(func(x celast.Expr) {
		if x.ID() == ed.id && e == nil {
			e = x
		}
		if x.ID() == ed.show && show == nil {
			show = x
		}
	}))
	if e == nil || show == nil {
		return Mutant{}, false
	}
	before, err := parser.Unparse(show, a.SourceInfo())
	if err != nil {
		return Mutant{}, false
	}
	switch ed.op {
	case OpRelational, OpEquality:
		c := e.AsCall()
		e.SetKindCase(fac.NewCall(e.ID(), celFlips[c.FunctionName()].to, c.Args()...))
	case OpNumber:
		switch v := e.AsLiteral().(type) {
		case types.Int:
			e.SetKindCase(fac.NewLiteral(e.ID(), v+types.Int(ed.variant)))
		case types.Uint:
			if ed.variant < 0 && v == 0 {
				return Mutant{}, false
			}
			e.SetKindCase(fac.NewLiteral(e.ID(), types.Uint(int64(v)+int64(ed.variant))))
		case types.Double:
			e.SetKindCase(fac.NewLiteral(e.ID(), v+types.Double(ed.variant)))
		}
	case OpString:
		repl := types.String("")
		if e.AsLiteral() == types.String("") {
			repl = "tausik-mutant"
		}
		e.SetKindCase(fac.NewLiteral(e.ID(), repl))
	case OpNegate:
		if e.Kind() == celast.CallKind && e.AsCall().FunctionName() == operators.LogicalNot {
			e.SetKindCase(e.AsCall().Args()[0])
		} else {
			e.SetKindCase(fac.NewCall(e.ID(), operators.LogicalNot, fac.CopyExpr(e)))
		}
	case OpDrop:
		c := e.AsCall()
		if c.FunctionName() == "filter" {
			e.SetKindCase(c.Target())
		} else {
			e.SetKindCase(c.Args()[ed.variant])
		}
	case OpQuantifier:
		c := e.AsCall()
		e.SetKindCase(fac.NewMemberCall(e.ID(), celQuantifiers[c.FunctionName()], c.Target(), c.Args()...))
	}
	after, err := parser.Unparse(show, a.SourceInfo())
	if err != nil || after == before {
		return Mutant{}, false
	}
	return Mutant{Operator: ed.op, Original: oneLine(before), Mutated: oneLine(after)}, true
}
