package pyscan

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
	// dotted collects the dotted bases of the class statement being read,
	// protocol whether one of them is Protocol.
	dotted   []string
	protocol bool
	// typeChecking counts the "if TYPE_CHECKING:" bodies being read.
	typeChecking int
	// imports holds the first token of each import and from-import
	// statement, in source order, for Scanner.imports.
	imports []int32
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
	name  string
	line  int32
	bases []string
	// dotted holds each base of bases as written, dotted ("unittest.TestCase").
	dotted []string
	public []string
	flags  ClassFlags
}

func (p *parser) reset(src []byte, toks []token) {
	p.src, p.toks, p.i, p.err = src, toks, 0, nil
	p.classes = p.classes[:0]
	p.imports = p.imports[:0]
	p.clause = clNone
	p.typeChecking = 0
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
