package python

import (
	"fmt"

	"golang.org/x/text/unicode/norm"
)

// parser walks the token stream statement by statement. It knows Python's
// statement structure (blocks, compound-statement headers, decorators,
// match/case, one-line suites, ';'-separated simple statements) but parses
// expressions only as far as the class facts need: dotted base names and
// bare-name assignment targets. Along the way it rejects token sequences
// that no Python grammar accepts (see check).
type parser struct {
	src     []byte
	toks    []token
	i       int
	err     *syntaxError
	classes []classAcc
	// clause is what the statement just parsed lets follow it at the same
	// level: elif/else after if, else after a loop, except/else/finally
	// after try.
	clause uint8
}

// Clause states (parser.clause).
const (
	clNone       uint8 = iota
	clIf               // after if or elif
	clLoop             // after for or while
	clTry              // after try: except, except* or finally must follow
	clExcept           // after try ... except
	clExceptStar       // after try ... except*
	clTryElse          // after try ... except ... else
)

// classAcc accumulates one class statement's facts.
type classAcc struct {
	name   string
	line   int32
	bases  []string
	public []string
}

func (p *parser) reset(src []byte, toks []token) {
	p.src, p.toks, p.i, p.err = src, toks, 0, nil
	p.classes = p.classes[:0]
	p.clause = clNone
}

func (p *parser) fail(line int32, format string, args ...any) {
	if p.err == nil {
		p.err = &syntaxError{line: line, msg: fmt.Sprintf(format, args...)}
	}
}

func (p *parser) isOp(k int, op uint8) bool {
	return k < len(p.toks) && p.toks[k].kind == tkOp && p.toks[k].sub == op
}

// parseFile parses statements until the end of input.
func (p *parser) parseFile() {
	for p.err == nil {
		switch t := p.toks[p.i]; t.kind {
		case tkEOF:
			p.endBlock(t)
			return
		case tkIndent:
			p.fail(t.line, "unexpected indent")
			return
		case tkDedent:
			p.fail(t.line, "unexpected unindent")
			return
		}
		p.statement(-1)
	}
}

// statement parses one statement starting at p.i. owner is the index of the
// class whose body directly holds the statement, or -1.
func (p *parser) statement(owner int) {
	t := p.toks[p.i]
	if p.clause == clTry && !(t.kind == tkName && (t.sub == kwExcept || t.sub == kwFinally)) {
		p.fail(t.line, "expected 'except' or 'finally' block")
		return
	}
	if !(t.kind == tkName && (t.sub == kwElif || t.sub == kwElse || t.sub == kwExcept || t.sub == kwFinally)) {
		p.clause = clNone
	}
	switch t.kind {
	case tkOp:
		if t.sub == opAt {
			p.decorated(owner)
			return
		}
	case tkName:
		switch t.sub {
		case kwClass:
			p.classDef(p.i)
			return
		case kwDef:
			p.funcDef(owner, p.i, p.i)
			return
		case kwAsync:
			p.async(owner)
			return
		case kwIf, kwElif, kwWhile, kwFor, kwWith, kwTry, kwElse, kwExcept, kwFinally:
			p.compound(p.i, p.i)
			return
		case softMatch:
			if p.match() {
				return
			}
		}
	case tkIndent:
		p.fail(t.line, "unexpected indent")
		return
	}
	p.simpleStmts(owner)
}

// lineEnd returns the index of the NEWLINE (or EOF) ending the logical line
// that holds token k.
func (p *parser) lineEnd(k int) int {
	for k < len(p.toks) && p.toks[k].kind != tkNewline && p.toks[k].kind != tkEOF {
		k++
	}
	return k
}

// matching returns the index of the bracket closing the one at k, searching
// no further than end (end itself if unbalanced).
func (p *parser) matching(k, end int) int {
	depth := 0
	for ; k < end; k++ {
		t := &p.toks[k]
		if t.kind != tkOp {
			continue
		}
		switch t.sub {
		case opLPar, opLSqb, opLBrace:
			depth++
		case opRPar, opRSqb, opRBrace:
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return end
}

// headerColon returns the index of the ':' ending a compound statement's
// header in [from, end): the first at bracket depth 0 that does not belong to
// a lambda. -1 if there is none.
func (p *parser) headerColon(from, end int) int {
	depth, lambdas := 0, 0
	for k := from; k < end; k++ {
		t := &p.toks[k]
		switch t.kind {
		case tkOp:
			switch t.sub {
			case opLPar, opLSqb, opLBrace:
				depth++
			case opRPar, opRSqb, opRBrace:
				depth--
			case opColon:
				if depth == 0 {
					if lambdas == 0 {
						return k
					}
					lambdas--
				}
			}
		case tkName:
			if t.sub == kwLambda && depth == 0 {
				lambdas++
			}
		}
	}
	return -1
}

// suite parses the body after a header's ':' at colon: simple statements on
// the same line, or NEWLINE INDENT statements DEDENT.
func (p *parser) suite(owner, colon int, what string, line int32) {
	p.i = colon + 1
	if p.toks[p.i].kind != tkNewline {
		p.simpleStmts(owner)
		return
	}
	p.i++
	if t := p.toks[p.i]; t.kind != tkIndent {
		p.fail(t.line, "expected an indented block after %s on line %d", what, line)
		return
	}
	p.i++
	p.clause = clNone
	for p.err == nil {
		switch t := p.toks[p.i]; t.kind {
		case tkDedent, tkEOF:
			p.endBlock(t)
			if t.kind == tkDedent {
				p.i++
			}
			return
		}
		p.statement(owner)
	}
}

// endBlock checks that the block ending at t leaves no try without a
// handler, and clears the clause state for the enclosing block.
func (p *parser) endBlock(t token) {
	if p.clause == clTry {
		p.fail(t.line, "expected 'except' or 'finally' block")
	}
	p.clause = clNone
}

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
		p.suite(-1, colon, clauseNames[kw], line)
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
	p.classes = append(p.classes, classAcc{name: p.ident(name), line: line, bases: bases, public: []string{}})
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

// ident returns a name token's identifier, NFKC-normalised as CPython does
// for non-ASCII names.
func (p *parser) ident(t token) string {
	b := p.src[t.start:t.end]
	if t.flags&flagNonASCII != 0 {
		return norm.NFKC.String(string(b))
	}
	return string(b)
}

// addPublic adds the name token at k to the public names of class owner
// unless it starts with '_'.
func (p *parser) addPublic(owner, k int) {
	t := p.toks[k]
	if p.src[t.start] == '_' {
		return
	}
	name := p.ident(t)
	if name[0] == '_' {
		return
	}
	p.classes[owner].public = append(p.classes[owner].public, name)
}
