package fastscan

// expr reads an expression (types included where go/parser takes them).
func (p *fparser) expr() bool {
	_, ok := p.exprK()
	return ok
}

// exprK reads an expression and returns its shape: that of its operand
// when it has no binary operator.
func (p *fparser) exprK() (byte, bool) {
	k, ok := p.unary()
	for ok && p.binaryOp() {
		p.next()
		_, ok = p.unary()
		k = xOther
	}
	return k, ok
}

func (p *fparser) binaryOp() bool {
	if p.tok.kind != tOp {
		return false
	}
	switch p.tok.op {
	case '+', '-', '*', '/', '%', '&', '|', '^', '<', '>', opShl, opShr, opAndNot, opLand, opLor, opEql, opNeq, opLeq, opGeq:
		return true
	}
	return false
}

func (p *fparser) unary() (byte, bool) {
	if p.tok.kind == tOp {
		switch p.tok.op {
		case '+', '-', '!', '^', '*', '&':
			p.next()
			_, ok := p.unary()
			return xOther, ok
		case opArrow:
			p.next()
			if p.isKw(kwChan) {
				return xOther, false // <-chan T as a type: go/parser's own dance
			}
			_, ok := p.unary()
			return xOther, ok
		}
	}
	return p.primary()
}

// primary reads an operand and its selectors, indexes, slices, type
// assertions, calls and composite literals.
func (p *fparser) primary() (byte, bool) {
	if !p.enter() {
		return xOther, false
	}
	defer p.leave()
	k, ok := p.operand()
	for ok {
		switch {
		case p.is('.'):
			p.next()
			switch {
			case p.tok.kind == tIdent:
				p.next()
				k = xName
			case p.is('('):
				p.next()
				if p.isKw(kwType) {
					if !p.guardOK {
						return xOther, false
					}
					p.next()
					p.guards++
					k = xGuard
				} else {
					if !p.typ() {
						return xOther, false
					}
					k = xOther
				}
				ok = p.got(')')
			default:
				return xOther, false
			}
		case p.is('['):
			k, ok = p.index()
		case p.is('('):
			ok = p.call()
			k = xCall
		case p.is('{'):
			switch {
			case k == xTypeLit || (k == xName || k == xIdent) && p.exprLev >= 0:
				ok = p.compositeLit()
				k = xOther
			case k == xParenType || k == xParenName && p.exprLev >= 0:
				return xOther, false // go/parser: cannot parenthesize type in composite literal
			default:
				return k, true
			}
		default:
			return k, true
		}
	}
	return k, false
}

// operand reads a name, a literal, a parenthesised expression, a func
// literal or type, or a composite type.
func (p *fparser) operand() (byte, bool) {
	switch p.tok.kind {
	case tIdent:
		p.next()
		return xIdent, true
	case tNumber, tString, tChar:
		p.next()
		return xOther, true
	case tKeyword:
		switch p.tok.op {
		case kwFunc:
			p.next()
			if !p.signature() {
				return xOther, false
			}
			if p.is('{') {
				return xOther, p.body()
			}
			return xOther, true
		case kwStruct, kwMap:
			return xTypeLit, p.typ()
		case kwChan, kwInterface:
			return xOther, p.typ()
		}
	case tOp:
		switch p.tok.op {
		case '(':
			p.next()
			p.exprLev++
			k, ok := p.exprK()
			p.exprLev--
			if !ok || !p.got(')') {
				return xOther, false
			}
			switch k {
			case xIdent, xName, xParenName:
				return xParenName, true
			case xTypeLit, xParenType:
				return xParenType, true
			}
			return xOther, true
		case '[':
			p.next()
			switch {
			case p.got(']'):
			case p.got(opEllip):
				if !p.got(']') || !p.typ() || !p.is('{') {
					return xOther, false
				}
				return xTypeLit, true
			default:
				p.exprLev++
				ok := p.expr() && p.got(']')
				p.exprLev--
				if !ok {
					return xOther, false
				}
			}
			return xTypeLit, p.typ()
		}
	}
	return xOther, false
}

// index reads [i], [i, j] (an instance), [lo:hi] or [lo:hi:max].
func (p *fparser) index() (byte, bool) {
	p.next()
	p.exprLev++
	defer func() { p.exprLev-- }()
	if !p.is(':') {
		if !p.expr() {
			return xOther, false
		}
		if p.got(',') {
			for { // go/parser reads the indexes after the first as types
				if !p.typ() {
					return xOther, false
				}
				if !p.got(',') {
					break
				}
			}
			return xName, p.got(']')
		}
		if !p.is(':') {
			return xName, p.got(']')
		}
	}
	p.next() // the first ':'
	if p.got(']') {
		return xOther, true
	}
	if !p.is(':') && !p.expr() {
		return xOther, false
	}
	if p.got(':') {
		if !p.expr() { // a 3-index slice needs both indexes: go/parser checks
			return xOther, false
		}
	}
	return xOther, p.got(']')
}

// call reads (args), a final ... allowed, a trailing comma allowed.
func (p *fparser) call() bool {
	p.next()
	p.exprLev++
	defer func() { p.exprLev-- }()
	for !p.is(')') {
		if !p.expr() {
			return false
		}
		if p.got(opEllip) && !p.lastParam() {
			return false
		}
		if !p.got(',') && !p.is(')') {
			return false
		}
	}
	p.next()
	return true
}

// compositeLit reads { [key:] value, ... } where a key or value may be an
// elided { ... } literal.
func (p *fparser) compositeLit() bool {
	if !p.enter() {
		return false
	}
	defer p.leave()
	p.next()
	p.exprLev++
	defer func() { p.exprLev-- }()
	elem := func() bool {
		if p.is('{') {
			return p.compositeLit()
		}
		return p.expr()
	}
	for !p.is('}') {
		if !elem() {
			return false
		}
		if p.got(':') && !elem() {
			return false
		}
		if !p.got(',') && !p.is('}') {
			return false
		}
	}
	p.next()
	return true
}
