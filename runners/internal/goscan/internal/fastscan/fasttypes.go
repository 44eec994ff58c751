package fastscan

// The fast path's types and parameter lists.

import "github.com/tausik/tausik/facts"

// structType reads struct{...}; into st when st is not nil (a top-level
// struct's own fields, not those of structs nested in it).
func (p *fparser) structType(st *facts.GoStruct) bool {
	p.next()
	if !p.got('{') {
		return false
	}
	for !p.is('}') {
		if !p.fieldDecl(st) {
			return false
		}
		if p.tok.kind == tString {
			p.next()
		}
		if !p.endSemi() || p.is(')') {
			return false
		}
	}
	p.next()
	return true
}

// fieldDecl reads one field declaration: names and a type, or an
// embedded [*][pkg.]T[[args]].
func (p *fparser) fieldDecl(st *facts.GoStruct) bool {
	embed := func(qual, base string) {
		if st == nil {
			return
		}
		if qual != "" {
			st.Bases = append(st.Bases, qual+"."+base)
		} else {
			st.Bases = append(st.Bases, base)
		}
		if isExported(base) {
			st.Fields = append(st.Fields, base)
		}
	}
	star := p.got('*')
	if p.tok.kind != tIdent {
		return false
	}
	first := p.text()
	p.next()
	qualified := func() bool {
		p.next()
		if p.tok.kind != tIdent {
			return false
		}
		base := p.text()
		p.next()
		if p.is('[') && !p.typeArgs() {
			return false
		}
		embed(first, base)
		return true
	}
	if star {
		if p.is('.') {
			return qualified()
		}
		if p.is('[') && !p.typeArgs() {
			return false
		}
		embed("", first)
		return true
	}
	switch {
	case p.is('.'):
		return qualified()
	case p.tok.kind == tSemi || p.tok.kind == tString || p.is('}'):
		embed("", first)
		return true
	case p.is('['):
		named, ok := p.arrayOrInstance()
		if ok && !named {
			embed("", first)
		} else if ok && st != nil && isExported(first) {
			st.Fields = append(st.Fields, first)
		}
		return ok
	}
	names := []string{first}
	for p.got(',') {
		if p.tok.kind != tIdent {
			return false
		}
		names = append(names, p.text())
		p.next()
	}
	if !p.typ() {
		return false
	}
	if st != nil {
		for _, n := range names {
			if isExported(n) {
				st.Fields = append(st.Fields, n)
			}
		}
	}
	return true
}

// arrayOrInstance reads what follows "name[" in a field or parameter list,
// as go/parser does: "name []E" and "name [N]E" are a named field of an
// array type (named true), "name[A, B]" an instance of generic type name.
func (p *fparser) arrayOrInstance() (named, ok bool) {
	p.next()
	if p.got(']') {
		return true, p.typ()
	}
	p.exprLev++
	args := 0
	for !p.is(']') {
		if p.is(opEllip) || args == 0 && !p.expr() || args > 0 && !p.typ() {
			return false, false
		}
		args++
		if !p.listSep(']') {
			return false, false
		}
	}
	p.exprLev--
	p.next()
	if args == 1 && p.typeStart() {
		return true, p.typ()
	}
	return false, args > 0
}

// listSep reads the comma after a list element, or sees the list's
// closing token; a trailing comma before it is refused.
func (p *fparser) listSep(closing byte) bool {
	if p.is(closing) {
		return true
	}
	return p.got(',') && !p.is(closing)
}

// typeArgs reads [T1, T2] (the current token is '[').
func (p *fparser) typeArgs() bool {
	p.next()
	if p.is(']') {
		return false // go/parser: expected type argument list
	}
	for !p.is(']') {
		if !p.typ() || !p.listSep(']') {
			return false
		}
	}
	p.next()
	return true
}

// typeStart reports whether the current token can start a type.
func (p *fparser) typeStart() bool {
	switch p.tok.kind {
	case tIdent:
		return true
	case tKeyword:
		switch p.tok.op {
		case kwFunc, kwMap, kwChan, kwStruct, kwInterface:
			return true
		}
	case tOp:
		switch p.tok.op {
		case '*', '[', '(', opArrow:
			return true
		}
	}
	return false
}

// typ reads a type.
func (p *fparser) typ() bool {
	if !p.enter() {
		return false
	}
	defer p.leave()
	switch p.tok.kind {
	case tIdent:
		p.next()
		if p.got('.') {
			if p.tok.kind != tIdent {
				return false
			}
			p.next()
		}
		if p.is('[') {
			return p.typeArgs()
		}
		return true
	case tKeyword:
		switch p.tok.op {
		case kwFunc:
			p.next()
			return p.signature()
		case kwMap:
			p.next()
			if !p.got('[') || !p.typ() || !p.got(']') {
				return false
			}
			return p.typ()
		case kwChan:
			p.next()
			p.got(opArrow)
			return p.typ()
		case kwStruct:
			return p.structType(nil)
		case kwInterface:
			return p.interfaceType()
		}
	case tOp:
		switch p.tok.op {
		case '*':
			p.next()
			return p.typ()
		case opArrow:
			p.next()
			if !p.isKw(kwChan) {
				return false
			}
			p.next()
			return p.typ()
		case '(':
			p.next()
			return p.typ() && p.got(')')
		case '[':
			p.next()
			if p.got(']') {
				return p.typ()
			}
			if p.is(opEllip) {
				return false
			}
			p.exprLev++
			ok := p.expr() && p.got(']')
			p.exprLev--
			return ok && p.typ()
		}
	}
	return false
}

// interfaceType reads interface{...}: methods, embedded types and unions.
func (p *fparser) interfaceType() bool {
	p.next()
	if !p.got('{') {
		return false
	}
	for !p.is('}') {
		switch n := p.peek(); {
		case p.tok.kind == tIdent && n.kind == tOp && n.op == '(':
			p.next()
			if !p.signature() {
				return false
			}
		case p.tok.kind == tIdent && n.kind == tOp && n.op == '[':
			return false
		case p.tok.kind != tIdent && !p.is('~'):
			return false
		case !p.constraint():
			return false
		}
		if !p.endSemi() || p.is(')') {
			return false
		}
	}
	p.next()
	return true
}

// signature reads (params) [result].
func (p *fparser) signature() bool {
	if !p.params(true) {
		return false
	}
	if p.is('(') {
		return p.params(false)
	}
	if p.typeStart() {
		return p.typ()
	}
	return true
}

// params reads a parameter list: all types, or all names with types
// (names may share the type that follows them); ... only in the last,
// and only when variadic (not in results).
func (p *fparser) params(variadic bool) bool {
	if !p.got('(') {
		return false
	}
	const bare, named, unnamed = 1, 2, 3
	seen := [4]bool{}
	last := 0
	for !p.is(')') {
		if p.got(opEllip) {
			if !variadic || !p.typ() || !p.lastParam() {
				return false
			}
			last = unnamed
		} else if p.tok.kind == tIdent && !(p.peek().kind == tOp && p.peek().op == '.') {
			p.next()
			switch {
			case p.is(',') || p.is(')'):
				last = bare
			case p.is('['):
				isNamed, ok := p.arrayOrInstance()
				if !ok {
					return false
				}
				last = unnamed
				if isNamed {
					last = named
				}
			case p.got(opEllip):
				// names grouped before "name ...T" would share ...T
				if !variadic || last == bare || !p.typ() || !p.lastParam() {
					return false
				}
				last = named
			case p.typeStart():
				if !p.typ() {
					return false
				}
				last = named
			default:
				return false
			}
		} else {
			if !p.typ() {
				return false
			}
			last = unnamed
		}
		seen[last] = true
		if !p.got(',') && !p.is(')') {
			return false
		}
	}
	p.next()
	if seen[named] {
		return !seen[unnamed] && last == named
	}
	return true
}

// lastParam reports whether the parameter just read is the list's last.
func (p *fparser) lastParam() bool {
	if p.is(')') {
		return true
	}
	n := p.peek()
	return p.is(',') && n.kind == tOp && n.op == ')'
}
