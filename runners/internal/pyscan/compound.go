package pyscan

// Compound statements: the headers and suites of if/while/for/try/with and
// their clauses, decorators, def, class and match.

var clauseNames = map[uint8]string{
	kwIf: "'if' statement", kwElif: "'elif' statement", kwElse: "'else' statement",
	kwWhile: "'while' statement", kwFor: "'for' statement", kwWith: "'with' statement",
	kwTry: "'try' statement", kwExcept: "'except' statement", kwFinally: "'finally' statement",
}

// compound parses if/elif/else/while/for/with/try/except/finally statements
// (from is the statement's first token, head its keyword, after any async).
func (p *parser) compound(from, head int) {
	kw := p.toks[head].sub
	end := p.lineEnd(head)
	colon := p.headerColon(head, end)
	line := p.toks[head].line
	if colon < 0 {
		p.fail(line, "expected ':'")
		return
	}
	switch kw {
	case kwTry, kwElse, kwFinally:
		if colon != head+1 {
			p.fail(line, "expected ':'")
			return
		}
	case kwIf, kwElif, kwWhile, kwFor, kwWith:
		if colon == head+1 {
			p.fail(line, "invalid syntax")
			return
		}
	}
	p.check(from, colon, false)
	next, ok := p.nextClause(kw, head)
	if !ok {
		if kw == kwExcept && (p.clause == clExcept || p.clause == clExceptStar) {
			p.fail(line, "cannot have both 'except' and 'except*' on the same 'try'")
		} else {
			p.fail(line, "invalid syntax")
		}
	}
	if p.err == nil {
		guard := kw == kwIf && p.typeCheckingTest(head+1, colon)
		p.typeChecking += b2i(guard)
		p.suite(-1, colon, clauseNames[kw], line)
		p.typeChecking -= b2i(guard)
		p.clause = next
	}
}

// nextClause checks that the clause keyword kw may follow the statement
// before it (p.clause) and returns the state after it.
func (p *parser) nextClause(kw uint8, head int) (uint8, bool) {
	prev := p.clause
	switch kw {
	case kwIf:
		return clIf, true
	case kwFor, kwWhile:
		return clLoop, true
	case kwTry:
		return clTry, true
	case kwElif:
		return clIf, prev == clIf
	case kwElse:
		switch prev {
		case clIf, clLoop:
			return clNone, true
		case clExcept, clExceptStar:
			return clTryElse, true
		}
		return clNone, false
	case kwExcept:
		star := p.isOp(head+1, opStar)
		switch {
		case prev == clTry && star, prev == clExceptStar && star:
			return clExceptStar, true
		case prev == clTry, prev == clExcept && !star:
			return clExcept, true
		}
		return clNone, false
	case kwFinally:
		return clNone, prev == clTry || prev == clExcept || prev == clExceptStar || prev == clTryElse
	}
	return clNone, true
}

// decorated parses decorator lines and the def or class they decorate.
func (p *parser) decorated(owner int) {
	for p.err == nil && p.isOp(p.i, opAt) {
		end := p.lineEnd(p.i)
		if end == p.i+1 {
			p.fail(p.toks[p.i].line, "invalid syntax")
			return
		}
		p.check(p.i, end, false)
		p.i = end + 1
	}
	if p.err != nil {
		return
	}
	switch t := p.toks[p.i]; {
	case t.kind == tkName && t.sub == kwClass:
		p.classDef(p.i)
	case t.kind == tkName && t.sub == kwDef:
		p.funcDef(owner, p.i, p.i)
	case t.kind == tkName && t.sub == kwAsync && p.toks[p.i+1].kind == tkName && p.toks[p.i+1].sub == kwDef:
		p.funcDef(owner, p.i, p.i+1)
	default:
		p.fail(t.line, "invalid syntax")
	}
}

// async parses async def, async for and async with.
func (p *parser) async(owner int) {
	next := p.toks[p.i+1]
	switch {
	case next.kind == tkName && next.sub == kwDef:
		p.funcDef(owner, p.i, p.i+1)
	case next.kind == tkName && (next.sub == kwFor || next.sub == kwWith):
		p.compound(p.i, p.i+1)
	default:
		p.fail(p.toks[p.i].line, "invalid syntax")
	}
}

// funcDef parses a function definition; from is its first token (async or
// def), def the index of the def keyword. Its name is a public name of owner.
func (p *parser) funcDef(owner, from, def int) {
	line := p.toks[def].line
	name := p.toks[def+1]
	if name.kind != tkName || isHard(name.sub) || !p.isOp(def+2, opLPar) && !p.isOp(def+2, opLSqb) {
		p.fail(line, "invalid syntax")
		return
	}
	end := p.lineEnd(def)
	colon := p.headerColon(def, end)
	if colon < 0 {
		p.fail(line, "expected ':'")
		return
	}
	p.check(from, colon, false)
	if p.err != nil {
		return
	}
	if owner >= 0 {
		p.addPublic(owner, def+1)
	}
	p.suite(-1, colon, "function definition", line)
}

// classDef parses a class statement at k and records its facts.
func (p *parser) classDef(k int) {
	line := p.toks[k].line
	name := p.toks[k+1]
	if name.kind != tkName || isHard(name.sub) {
		p.fail(line, "invalid syntax")
		return
	}
	end := p.lineEnd(k)
	colon := p.headerColon(k, end)
	if colon < 0 {
		p.fail(line, "expected ':'")
		return
	}
	j := k + 2
	if j < colon && p.isOp(j, opLSqb) { // PEP 695 type parameters
		j = p.matching(j, colon) + 1
	}
	bases := []string{}
	p.dotted, p.protocol = nil, false
	if j < colon && p.isOp(j, opLPar) {
		m := p.matching(j, colon)
		bases = p.bases(j+1, m, bases)
		j = m + 1
	}
	if j != colon {
		p.fail(line, "invalid syntax")
		return
	}
	p.check(k, colon, false)
	if p.err != nil {
		return
	}
	idx := len(p.classes)
	var flags ClassFlags
	if p.typeChecking > 0 {
		flags |= TypeChecking
	}
	if p.protocol {
		flags |= Protocol
	}
	p.classes = append(p.classes, classAcc{name: p.ident(name), line: line, bases: bases, dotted: p.dotted, public: []string{}, flags: flags})
	p.suite(idx, colon, "class definition", line)
}

// match parses a match statement if the logical line at p.i is one: it
// starts with the soft keyword and its header ':' ends the line.
func (p *parser) match() bool {
	from := p.i
	end := p.lineEnd(from)
	colon := p.headerColon(from, end)
	if colon < 0 || colon != end-1 || colon == from+1 || p.toks[end].kind != tkNewline {
		return false
	}
	line := p.toks[from].line
	p.check(from, colon, true)
	if p.err != nil {
		return true
	}
	p.i = end + 1
	if t := p.toks[p.i]; t.kind != tkIndent {
		p.fail(t.line, "expected an indented block after 'match' statement on line %d", line)
		return true
	}
	p.i++
	for p.err == nil {
		t := p.toks[p.i]
		switch {
		case t.kind == tkDedent:
			p.i++
			return true
		case t.kind == tkName && t.sub == softCase:
			p.caseClause()
		case t.kind == tkIndent:
			p.fail(t.line, "unexpected indent")
		default:
			p.fail(t.line, "invalid syntax")
		}
	}
	return true
}

// caseClause parses one "case pattern [if guard]:" block of a match.
func (p *parser) caseClause() {
	from := p.i
	line := p.toks[from].line
	end := p.lineEnd(from)
	colon := p.headerColon(from, end)
	if colon < 0 || colon == from+1 {
		p.fail(line, "invalid syntax")
		return
	}
	p.check(from, colon, true)
	if p.err == nil {
		p.suite(-1, colon, "'case' statement", line)
	}
}

// typeCheckingTest reports whether the test [from, to) of an if statement
// is TYPE_CHECKING or a dotted name ending in it (typing.TYPE_CHECKING):
// its body runs only under a type checker.
func (p *parser) typeCheckingTest(from, to int) bool {
	k := p.chain(from, to)
	return k >= 0 && p.ident(p.toks[k]) == "TYPE_CHECKING"
}

// protocolBase reports whether the base [from, to) is Protocol, a dotted
// name ending in it, or either subscripted (Protocol[T]).
func (p *parser) protocolBase(from, to int) bool {
	k := p.chain(from, to)
	for j := from; k < 0 && j < to; j++ {
		if p.isOp(j, opLSqb) {
			if p.matching(j, to) == to-1 {
				k = p.chain(from, j)
			}
			break
		}
	}
	return k >= 0 && p.ident(p.toks[k]) == "Protocol"
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
