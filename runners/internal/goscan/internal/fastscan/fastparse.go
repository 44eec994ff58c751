// Package fastscan is the Go runner's fast path: a recognizer of Go's
// syntax that reads a file's structs, methods and imports without building
// a syntax tree. Its one entry point is Scan; whatever it is unsure of it
// refuses, and the runner reads that file with go/parser, the reference it
// is held to (FuzzFastScanAgrees and the GOROOT tests in runners/golang).
package fastscan

import (
	"bytes"
	"path"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/tausik/tausik/facts"
)

// Scan reads a file's facts without go/parser: a recognizer of Go's
// syntax that walks the whole file, function bodies included, and builds
// no syntax tree. It is conservative: ok is true only for a file it read
// to the end without meeting anything it is not sure go/parser accepts
// exactly so, and then the facts are those go/parser's reading gives. Anything else
// (a syntax error, or merely a form it does not handle) is false, and the
// caller asks go/parser, which also words the error.
func Scan(p string, src []byte) (f facts.GoFile, ok bool) {
	if !utf8.Valid(src) || bytes.IndexByte(src, 0) >= 0 || bytes.Contains(src, []byte("\uFEFF")) {
		return f, false
	}
	ps := &fparser{lex: lexer{src: src, line: 1}}
	f = facts.GoFile{Path: p, Imports: map[string]string{}, Structs: []facts.GoStruct{}, Methods: []facts.GoMethod{}}
	ps.out = &f
	ps.next()
	if !ps.file() {
		return facts.GoFile{}, false
	}
	f.Parsed = true
	return f, true
}

// fparser is the fast path's recognizer. Every method returns false as
// soon as it is unsure; nothing after that is looked at.
type fparser struct {
	lex lexer
	tok tok
	out *facts.GoFile
	// exprLev is go/parser's: < 0 in a control clause's header, where
	// "T{" starts the block rather than a composite literal.
	exprLev int
	// depth bounds the recursion.
	depth int
	// guards counts .(type) seen in a switch header (guardOK); anywhere
	// else one makes the parser give up.
	guardOK bool
	guards  int
	// lastKind is the shape of the last expression exprList read, and
	// listNames whether all of them were lone identifiers.
	lastKind  byte
	listNames bool
}

func (p *fparser) next() { p.tok = p.lex.next() }

func (p *fparser) is(op byte) bool   { return p.tok.kind == tOp && p.tok.op == op }
func (p *fparser) isKw(kw byte) bool { return p.tok.kind == tKeyword && p.tok.op == kw }
func (p *fparser) text() string      { return string(p.lex.src[p.tok.start:p.tok.end]) }
func (p *fparser) semiOrClose() bool { return p.tok.kind == tSemi || p.is('}') || p.is(')') }
func (p *fparser) got(op byte) bool {
	if p.is(op) {
		p.next()
		return true
	}
	return false
}

// peek returns the token after the current one.
func (p *fparser) peek() tok {
	l := p.lex
	return l.next()
}

// enter guards the recursion; each caller pairs it with leave.
func (p *fparser) enter() bool { p.depth++; return p.depth < 400 }
func (p *fparser) leave()      { p.depth-- }

// endSemi expects the end of a declaration or statement: a semicolon, or
// a closing ) or } left for the caller.
func (p *fparser) endSemi() bool {
	if p.tok.kind == tSemi {
		p.next()
		return true
	}
	return p.is(')') || p.is('}')
}

// file reads the package clause, the imports and every declaration.
func (p *fparser) file() bool {
	if !p.isKw(kwPackage) {
		return false
	}
	p.next()
	if p.tok.kind != tIdent || p.text() == "_" {
		return false
	}
	p.out.Package = p.text()
	p.next()
	if p.tok.kind != tSemi {
		return p.tok.kind == tEOF
	}
	p.next()
	for p.isKw(kwImport) {
		p.next()
		if !p.group(p.importSpec) || !p.topSemi() {
			return false
		}
	}
	for p.tok.kind != tEOF {
		if !p.decl(true) || !p.topSemi() {
			return false
		}
	}
	return true
}

// topSemi ends a top-level declaration: a semicolon, or the end of file.
func (p *fparser) topSemi() bool {
	if p.tok.kind == tSemi {
		p.next()
		return true
	}
	return p.tok.kind == tEOF
}

// group reads one spec or a parenthesised group of them.
func (p *fparser) group(spec func(first bool) bool) bool {
	if !p.is('(') {
		return spec(true)
	}
	p.next()
	for first := true; !p.is(')'); first = false {
		if !spec(first) || !p.endSemi() {
			return false
		}
	}
	p.next()
	return true
}

// importSpec reads one import and records the name it binds as importOf does.
func (p *fparser) importSpec(bool) bool {
	var name string
	switch {
	case p.tok.kind == tIdent:
		name = p.text()
		p.next()
	case p.is('.'):
		name = "."
		p.next()
	}
	if p.tok.kind != tString {
		return false
	}
	ip, err := strconv.Unquote(p.text())
	if err != nil || !validImport(ip) {
		return false
	}
	p.next()
	if p.tok.kind != tSemi && !p.is(')') {
		return false
	}
	if name == "" {
		name = path.Base(ip)
		if !isIdentifier(name) {
			return true
		}
	}
	if name != "_" && name != "." {
		if _, dup := p.out.Imports[name]; !dup {
			p.out.Imports[name] = ip
		}
	}
	return true
}

// validImport is a path go/parser surely accepts: plain ASCII path bytes.
func validImport(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isLetter(c) || isDigit(c) || c == '.' || c == '/' || c == '-' || c == '~' || c == '+') {
			return false
		}
	}
	return true
}

// isIdentifier is token.IsIdentifier for ASCII names.
func isIdentifier(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isLetter(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return keyword([]byte(s)) == 0
}

// decl reads a const, var, type or (at top level) func declaration.
func (p *fparser) decl(top bool) bool {
	if p.tok.kind != tKeyword {
		return false
	}
	switch p.tok.op {
	case kwConst, kwVar:
		isConst := p.tok.op == kwConst
		p.next()
		return p.group(func(first bool) bool { return p.valueSpec(isConst, first) })
	case kwType:
		p.next()
		return p.group(func(bool) bool { return p.typeSpec(top) })
	case kwFunc:
		return top && p.funcDecl()
	}
	return false
}

// valueSpec reads names [type] [= values]; a const spec may be bare only
// after the first of its group.
func (p *fparser) valueSpec(isConst, first bool) bool {
	if !p.identList() {
		return false
	}
	typed := false
	if !p.is('=') && !p.semiOrClose() {
		if !p.typ() {
			return false
		}
		typed = true
	}
	if p.got('=') {
		_, ok := p.exprList()
		return ok
	}
	return !isConst && typed || isConst && !first && !typed
}

func (p *fparser) identList() bool {
	for {
		if p.tok.kind != tIdent {
			return false
		}
		p.next()
		if !p.got(',') {
			return true
		}
	}
}

// typeSpec reads Name [TypeParams] [=] Type, recording a top-level struct.
func (p *fparser) typeSpec(top bool) bool {
	if p.tok.kind != tIdent {
		return false
	}
	name, line := p.text(), p.tok.line
	p.next()
	if p.is('[') {
		// type T[P C] ... (type parameters) or type T [N]E (an array):
		// only the unambiguous shapes of each.
		next := p.peek()
		switch {
		case next.kind == tOp && next.op == ']':
			return p.typ()
		case next.kind == tNumber:
			return p.typ()
		case next.kind == tIdent:
			l := p.lex
			l.next()
			after := l.next()
			if after.kind == tOp && after.op == ']' {
				return p.typ() // [N]E
			}
			if !(after.kind == tIdent || after.kind == tOp && (after.op == ',' || after.op == '~') || after.kind == tKeyword && after.op == kwInterface) {
				return false
			}
			if !p.typeParams() {
				return false
			}
		default:
			return false
		}
	}
	alias := p.got('=')
	if top && !alias && p.isKw(kwStruct) {
		st := facts.GoStruct{Name: name, Line: line, Fields: []string{}, Bases: []string{}}
		if !p.structType(&st) {
			return false
		}
		slices.Sort(st.Fields)
		st.Fields = slices.Compact(st.Fields)
		p.out.Structs = append(p.out.Structs, st)
		return true
	}
	return p.typ()
}

// typeParams reads [P, Q C1, R C2] (the current token is '[').
func (p *fparser) typeParams() bool {
	p.next()
	if p.is(']') {
		return false // go/parser: empty type parameter list
	}
	for !p.is(']') {
		if !p.identList() || !p.constraint() || !p.listSep(']') {
			return false
		}
	}
	p.next()
	return true
}

// constraint reads a type parameter's constraint: a union of [~]types.
func (p *fparser) constraint() bool {
	for {
		p.got('~')
		if !p.typ() {
			return false
		}
		if !p.got('|') {
			return true
		}
	}
}

// funcDecl reads func [receiver] Name [TypeParams] Signature [Body].
func (p *fparser) funcDecl() bool {
	p.next()
	recv := ""
	if p.is('(') {
		var ok bool
		if recv, ok = p.receiver(); !ok {
			return false
		}
	}
	if p.tok.kind != tIdent {
		return false
	}
	name, line := p.text(), p.tok.line
	p.next()
	if p.is('[') {
		if recv != "" || !p.typeParams() {
			return false
		}
	}
	if !p.signature() {
		return false
	}
	if recv != "" && isExported(name) {
		p.out.Methods = append(p.out.Methods, facts.GoMethod{Recv: recv, Name: name, Line: line})
	}
	if p.is('{') {
		return p.body()
	}
	return true
}

func isExported(name string) bool { return name[0] >= 'A' && name[0] <= 'Z' }

// receiver reads ([name] [*]T[[params]]) and returns T.
func (p *fparser) receiver() (string, bool) {
	p.next()
	if p.tok.kind == tIdent {
		if n := p.peek(); n.kind == tIdent || n.kind == tOp && n.op == '*' {
			p.next()
		}
	}
	p.got('*')
	if p.tok.kind != tIdent {
		return "", false
	}
	recv := p.text()
	p.next()
	if p.is('[') {
		p.next()
		if !p.identList() || !p.is(']') {
			return "", false
		}
		p.next()
	}
	if !p.got(')') {
		return "", false
	}
	return recv, true
}

// body reads a function body, a block at expression level 0 (a func
// literal in a header may hold composite literals).
func (p *fparser) body() bool {
	lev := p.exprLev
	p.exprLev = 0
	ok := p.block()
	p.exprLev = lev
	return ok
}
