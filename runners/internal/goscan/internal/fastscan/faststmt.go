package fastscan

// The fast path's statements and expressions, read as go/parser reads
// them (its exprLev rule for composite literals in control clauses
// included) but stricter wherever that is simpler: any doubt is false.

// Expression shapes that decide what may follow.
const (
	xOther     byte = iota
	xIdent          // a lone identifier
	xName           // a selector or an index: may be a composite literal's type
	xTypeLit        // an array, slice, struct or map type: always may be
	xCall           // ends in a call
	xGuard          // x.(type)
	xParenName      // a parenthesised name: T{ after it is go/parser's error
	xParenType      // a parenthesised composite type
)

// Simple statement categories.
const (
	catExpr byte = iota
	catDefine
	catAssign
	catRange
	catOther
)

// simple is what a simple statement was.
type simple struct {
	cat     byte
	kind    byte // catExpr: the expression's shape; catDefine: the single rhs's
	lhs     int
	rhs     int
	allName bool // every lhs is a lone identifier
}

// Statement contexts for simpleStmt.
const (
	modePlain = iota
	modeLabel
	modeRange
)

// block reads { statements }.
func (p *fparser) block() bool {
	if !p.got('{') || !p.stmtList() || !p.is('}') {
		return false
	}
	p.next()
	return true
}

// stmtList reads statements up to a }, case or default.
func (p *fparser) stmtList() bool {
	for !p.is('}') && !p.isKw(kwCase) && !p.isKw(kwDefault) {
		if p.tok.kind == tEOF || !p.stmt() {
			return false
		}
		if p.tok.kind == tSemi {
			p.next()
		} else if !p.is('}') {
			return false
		}
	}
	return true
}

// stmt reads one statement, not its terminating semicolon.
func (p *fparser) stmt() bool {
	if !p.enter() {
		return false
	}
	defer p.leave()
	switch p.tok.kind {
	case tSemi:
		return true // an empty statement: the list reads the semicolon
	case tKeyword:
		switch p.tok.op {
		case kwVar, kwConst, kwType:
			return p.decl(false)
		case kwGo, kwDefer:
			p.next()
			k, ok := p.exprK()
			return ok && k == xCall
		case kwReturn:
			p.next()
			if p.tok.kind == tSemi || p.is('}') {
				return true
			}
			_, ok := p.exprList()
			return ok
		case kwBreak, kwContinue:
			p.next()
			if p.tok.kind == tIdent {
				p.next()
			}
			return true
		case kwGoto:
			p.next()
			if p.tok.kind != tIdent {
				return false
			}
			p.next()
			return true
		case kwFallthrough:
			p.next()
			return true
		case kwIf:
			return p.ifStmt()
		case kwSwitch:
			return p.switchStmt()
		case kwSelect:
			return p.selectStmt()
		case kwFor:
			return p.forStmt()
		case kwFunc, kwStruct, kwMap, kwChan, kwInterface:
		default:
			return false
		}
	case tOp:
		if p.is('{') {
			return p.block()
		}
	}
	s, ok := p.simpleStmt(modeLabel)
	return ok && s.cat != catRange
}

// simpleStmt reads an expression, send, inc/dec, assignment, short
// variable declaration, (in modeRange) a range clause, or (in modeLabel)
// a labelled statement.
func (p *fparser) simpleStmt(mode int) (simple, bool) {
	var s simple
	s.allName = true
	for {
		k, ok := p.exprK()
		if !ok {
			return s, false
		}
		s.lhs++
		s.kind = k
		s.allName = s.allName && k == xIdent
		if !p.got(',') {
			break
		}
	}
	switch {
	case p.is(opDefine) || p.is('='):
		s.cat = catAssign
		if p.is(opDefine) {
			s.cat = catDefine
		}
		p.next()
		if s.cat == catDefine && !s.allName {
			return s, false
		}
		if mode == modeRange && p.isKw(kwRange) {
			p.next()
			s.cat = catRange
			return s, s.lhs <= 2 && p.expr()
		}
		n, ok := p.exprList()
		s.rhs = n
		s.kind = p.lastKind
		return s, ok
	case p.is(opAssignX), p.is(opArrow):
		p.next()
		s.cat = catOther
		return s, s.lhs == 1 && p.expr()
	case p.is(opInc) || p.is(opDec):
		p.next()
		s.cat = catOther
		return s, s.lhs == 1
	case p.is(':'):
		if mode != modeLabel || s.lhs != 1 || s.kind != xIdent {
			return s, false
		}
		p.next()
		s.cat = catOther
		if p.is('}') {
			return s, true
		}
		return s, p.stmt()
	}
	s.cat = catExpr
	return s, s.lhs == 1
}

// exprList reads expressions separated by commas and returns how many;
// p.lastKind is the last one's shape.
func (p *fparser) exprList() (int, bool) {
	n := 0
	p.listNames = true
	for {
		k, ok := p.exprK()
		if !ok {
			return n, false
		}
		n++
		p.lastKind = k
		p.listNames = p.listNames && k == xIdent
		if !p.got(',') {
			return n, true
		}
	}
}

// header reads a control clause's simple statement at exprLev -1.
func (p *fparser) header(mode int) (simple, bool) {
	lev := p.exprLev
	p.exprLev = -1
	s, ok := p.simpleStmt(mode)
	p.exprLev = lev
	return s, ok
}

func (p *fparser) ifStmt() bool {
	p.next()
	if p.is('{') {
		return false
	}
	s, ok := p.header(modePlain)
	if !ok {
		return false
	}
	if p.tok.kind == tSemi {
		p.next()
		if p.is('{') {
			return false
		}
		if s, ok = p.header(modePlain); !ok {
			return false
		}
	}
	if s.cat != catExpr || !p.block() {
		return false
	}
	if !p.isKw(kwElse) {
		return true
	}
	p.next()
	if p.isKw(kwIf) {
		return p.ifStmt()
	}
	return p.is('{') && p.block()
}

func (p *fparser) switchStmt() bool {
	p.next()
	guardOK, guards := p.guardOK, p.guards
	defer func() { p.guardOK, p.guards = guardOK, guards }()
	p.guardOK = true
	var tag simple
	hasTag, tagGuards := false, 0
	if !p.is('{') {
		if p.tok.kind != tSemi {
			p.guards = 0
			s, ok := p.header(modePlain)
			if !ok {
				return false
			}
			tag, hasTag, tagGuards = s, true, p.guards
		}
		if p.tok.kind == tSemi {
			p.next()
			if tagGuards > 0 {
				return false // a guard in the init statement
			}
			hasTag = false
			if !p.is('{') {
				p.guards = 0
				s, ok := p.header(modePlain)
				if !ok {
					return false
				}
				tag, hasTag, tagGuards = s, true, p.guards
			}
		}
	}
	if hasTag {
		guard := tag.kind == xGuard && (tag.cat == catExpr || tag.cat == catDefine && tag.lhs == 1 && tag.rhs == 1)
		if tagGuards != 0 && (tagGuards != 1 || !guard) || tagGuards == 0 && tag.cat != catExpr {
			return false
		}
	}
	p.guardOK = false
	if !p.got('{') {
		return false
	}
	for p.isKw(kwCase) || p.isKw(kwDefault) {
		if p.isKw(kwCase) {
			p.next()
			if _, ok := p.exprList(); !ok {
				return false
			}
		} else {
			p.next()
		}
		if !p.got(':') || !p.stmtList() {
			return false
		}
	}
	return p.got('}')
}

func (p *fparser) selectStmt() bool {
	p.next()
	if !p.got('{') {
		return false
	}
	for p.isKw(kwCase) || p.isKw(kwDefault) {
		if p.isKw(kwCase) {
			p.next()
			recv := p.is(opArrow)
			n, ok := p.exprList()
			if !ok {
				return false
			}
			names := p.listNames
			switch {
			case p.is(opArrow):
				p.next()
				if n != 1 || recv || !p.expr() {
					return false
				}
			case p.is('=') || p.is(opDefine):
				if n > 2 || p.is(opDefine) && !names {
					return false
				}
				p.next()
				if !p.is(opArrow) || !p.expr() {
					return false
				}
			default:
				if n != 1 || !recv {
					return false
				}
			}
		} else {
			p.next()
		}
		if !p.got(':') || !p.stmtList() {
			return false
		}
	}
	return p.got('}')
}

func (p *fparser) forStmt() bool {
	p.next()
	switch {
	case p.is('{'):
	case p.isKw(kwRange):
		p.next()
		lev := p.exprLev
		p.exprLev = -1
		ok := p.expr()
		p.exprLev = lev
		if !ok {
			return false
		}
	default:
		var s simple
		if p.tok.kind != tSemi {
			var ok bool
			if s, ok = p.header(modeRange); !ok {
				return false
			}
		} else {
			s.cat = catOther // no init statement
		}
		if s.cat != catRange {
			if p.tok.kind != tSemi {
				if s.cat != catExpr {
					return false
				}
			} else {
				p.next()
				if p.tok.kind != tSemi {
					c, ok := p.header(modePlain)
					if !ok || c.cat != catExpr {
						return false
					}
				}
				if p.tok.kind != tSemi {
					return false
				}
				p.next()
				if !p.is('{') {
					post, ok := p.header(modePlain)
					if !ok || post.cat == catDefine {
						return false
					}
				}
			}
		}
	}
	return p.block()
}
