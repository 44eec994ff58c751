package pyscan

import "strings"

// simpleStmts parses the ';'-separated simple statements of the logical line
// starting at p.i (a whole line, or a one-line suite after a header's ':').
// A trailing ';' is allowed, an empty statement is not.
func (p *parser) simpleStmts(owner int) {
	start, depth := p.i, 0
	for k := start; p.err == nil; k++ {
		t := &p.toks[k]
		switch t.kind {
		case tkNewline, tkEOF:
			if k > start || k == p.i {
				if k == start {
					p.fail(t.line, "invalid syntax")
					return
				}
				p.smallStmt(owner, start, k)
			}
			p.i = k + 1
			if t.kind == tkEOF {
				p.i = k
			}
			return
		case tkOp:
			switch t.sub {
			case opLPar, opLSqb, opLBrace:
				depth++
			case opRPar, opRSqb, opRBrace:
				depth--
			case opSemi:
				if depth == 0 {
					if k == start {
						p.fail(t.line, "invalid syntax")
						return
					}
					p.smallStmt(owner, start, k)
					start = k + 1
				}
			}
		}
	}
}

// smallStmt checks one simple statement in [from, to) and, directly in a
// class body, records the names it binds.
func (p *parser) smallStmt(owner, from, to int) {
	t := p.toks[from]
	switch t.kind {
	case tkName:
		switch t.sub {
		case kwClass, kwDef, kwAsync, kwIf, kwElif, kwElse, kwWhile, kwFor, kwWith, kwTry, kwExcept, kwFinally:
			p.fail(t.line, "invalid syntax") // a compound statement after ';' or in a one-line suite
			return
		case kwImport, kwFrom:
			p.imports = append(p.imports, int32(from))
		case kwPass, kwBreak, kwContinue:
			if to != from+1 {
				p.fail(t.line, "invalid syntax")
				return
			}
		case kwRaise:
			if k := p.topLevel(from, to, opComma); k >= 0 {
				p.fail(p.toks[k].line, "invalid syntax") // Python 2's raise E, "message"
				return
			}
		case softType:
			if to > from+1 && p.toks[from+1].kind == tkName && !isHard(p.toks[from+1].sub) {
				// "type X[T] = ...": a type alias, which binds no name.
				k := from + 2
				if p.isOp(k, opLSqb) {
					k = p.matching(k, to) + 1
				}
				if k >= to-1 || !p.isOp(k, opEqual) {
					p.fail(t.line, "invalid syntax")
					return
				}
				p.check(from, to, true)
				return
			}
		}
	case tkOp:
		if t.sub == opAt {
			p.fail(t.line, "invalid syntax")
			return
		}
	}
	p.check(from, to, false)
	if p.err != nil || owner < 0 || t.kind == tkName && isHard(t.sub) {
		return
	}
	p.bindings(owner, from, to)
}

// topLevel returns the index of the first operator op at bracket depth 0
// in [from, to), or -1.
func (p *parser) topLevel(from, to int, op uint8) int {
	depth := 0
	for k := from; k < to; k++ {
		t := &p.toks[k]
		if t.kind != tkOp {
			continue
		}
		switch t.sub {
		case opLPar, opLSqb, opLBrace:
			depth++
		case opRPar, opRSqb, opRBrace:
			depth--
		default:
			if t.sub == op && depth == 0 {
				return k
			}
		}
	}
	return -1
}

// bindings records the bare names a statement in a class body assigns:
// every target of "a = b = value" that is a (parenthesised) name, or the
// target of an annotated assignment "a: T [= value]". Tuple, attribute and
// subscript targets and augmented assignments bind no public name.
func (p *parser) bindings(owner, from, to int) {
	depth := 0
	seg := from
	for k := from; k < to; k++ {
		t := &p.toks[k]
		if t.kind == tkName && t.sub == kwLambda && depth == 0 {
			return // the value: any '=' or ':' from here on belongs to the lambda
		}
		if t.kind != tkOp {
			continue
		}
		switch t.sub {
		case opLPar, opLSqb, opLBrace:
			depth++
		case opRPar, opRSqb, opRBrace:
			depth--
		case opColon:
			if depth == 0 {
				if seg == from {
					p.bind(owner, from, k)
				}
				return
			}
		case opEqual:
			if depth == 0 {
				p.bind(owner, seg, k)
				seg = k + 1
			}
		}
	}
}

// bind records the target in [from, to) if it is a bare name.
func (p *parser) bind(owner, from, to int) {
	for to-from >= 3 && p.isOp(from, opLPar) && p.matching(from, to) == to-1 {
		from++
		to--
	}
	if to-from != 1 {
		return
	}
	if t := p.toks[from]; t.kind == tkName && !isHard(t.sub) {
		p.addPublic(owner, from)
	}
}

// bases appends to out the last identifier of each base in the argument list
// [from, to) of a class statement that is a dotted name, and to p.dotted
// the whole dotted name.
func (p *parser) bases(from, to int, out []string) []string {
	start, depth, lambdas := from, 0, 0
	for k := from; k <= to; k++ {
		if k == to {
			out = p.base(start, k, out)
			break
		}
		t := &p.toks[k]
		switch t.kind {
		case tkName:
			if t.sub == kwLambda && depth == 0 {
				lambdas++
			}
		case tkOp:
			switch t.sub {
			case opLPar, opLSqb, opLBrace:
				depth++
			case opRPar, opRSqb, opRBrace:
				depth--
			case opColon:
				if depth == 0 && lambdas > 0 {
					lambdas--
				}
			case opComma:
				if depth == 0 && lambdas == 0 {
					out = p.base(start, k, out)
					start = k + 1
				}
			}
		}
	}
	return out
}

// base appends one argument's base name: not for an empty slot, *args,
// **kwargs or keyword=value, nor for anything but a dotted name.
func (p *parser) base(from, to int, out []string) []string {
	if from >= to || p.isOp(from, opStar) || p.isOp(from, opDoubleStar) {
		return out
	}
	if to-from >= 2 && p.toks[from].kind == tkName && p.isOp(from+1, opEqual) {
		return out
	}
	p.protocol = p.protocol || p.protocolBase(from, to)
	if k := p.chain(from, to); k >= 0 {
		out = append(out, p.ident(p.toks[k]))
		var parts []string
		for j := from; j <= k; j++ {
			if p.toks[j].kind == tkName {
				parts = append(parts, p.ident(p.toks[j]))
			}
		}
		p.dotted = append(p.dotted, strings.Join(parts, "."))
	}
	return out
}

// chain returns the index of the last identifier of a dotted name in
// [from, to) — a name or a parenthesised dotted name, then ".name"s, with any
// redundant parentheses — or -1 when the range is any other expression.
func (p *parser) chain(from, to int) int {
	for to-from >= 3 && p.isOp(from, opLPar) && p.matching(from, to) == to-1 {
		from++
		to--
	}
	if from >= to {
		return -1
	}
	last := -1
	k := from
	switch t := p.toks[k]; {
	case t.kind == tkName && !isHard(t.sub):
		last = k
		k++
	case p.isOp(k, opLPar):
		m := p.matching(k, to)
		if m >= to {
			return -1
		}
		if last = p.chain(k+1, m); last < 0 {
			return -1
		}
		k = m + 1
	default:
		return -1
	}
	for k < to {
		if !p.isOp(k, opDot) || k+1 >= to {
			return -1
		}
		t := p.toks[k+1]
		if t.kind != tkName || isHard(t.sub) {
			return -1
		}
		last = k + 1
		k += 2
	}
	return last
}
