package fastscan

// The fast path's lexer: Go's tokens over ASCII source, with go/scanner's
// automatic semicolons. It is conservative, not complete: whatever it is
// not sure go/scanner accepts exactly as it reads it (a non-ASCII
// identifier, a number with underscores or a hex float, an unusual escape)
// makes it give up, and the file goes to go/parser (see Scan).

// Token kinds. A tOp token's op is its byte for the one-byte operators and
// one of the op constants below for the longer ones.
const (
	tEOF byte = iota
	tIdent
	tNumber
	tString
	tChar
	tSemi // ';', written or inserted at a newline or EOF
	tKeyword
	tOp       // any operator or delimiter, told apart by tok.op
	tBadToken // the lexer gave up
)

// Operators of more than one byte (the one-byte ones are
// "+-*/%&|^<>=!()[]{},;.:~").
const (
	opShl     = 'L' // <<
	opShr     = 'R' // >>
	opAndNot  = 'N' // &^
	opLand    = 'A' // &&
	opLor     = 'O' // ||
	opArrow   = 'W' // <-
	opInc     = 'I' // ++
	opDec     = 'D' // --
	opEql     = 'E' // ==
	opNeq     = 'Q' // !=
	opLeq     = 'l' // <=
	opGeq     = 'g' // >=
	opDefine  = 'F' // :=
	opEllip   = 'S' // ...
	opAssignX = 'X' // +=, -=, *=, /=, %=, &=, |=, ^=, <<=, >>=, &^=
)

// Keywords: the op of a tKeyword token.
const (
	kwBreak byte = iota + 1
	kwCase
	kwChan
	kwConst
	kwContinue
	kwDefault
	kwDefer
	kwElse
	kwFallthrough
	kwFor
	kwFunc
	kwGo
	kwGoto
	kwIf
	kwImport
	kwInterface
	kwMap
	kwPackage
	kwRange
	kwReturn
	kwSelect
	kwStruct
	kwSwitch
	kwType
	kwVar
)

// tok is one token: its kind, operator or keyword, bytes and line.
type tok struct {
	kind       byte
	op         byte // tOp: the operator; tKeyword: the keyword
	start, end int
	line       int
}

// lexer reads tokens from src. Its state is a value, so a parser looks
// ahead by copying it.
type lexer struct {
	src        []byte
	off        int
	line       int
	insertSemi bool
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// next returns the next token; tBadToken when the lexer is not sure.
func (l *lexer) next() tok {
	src := l.src
	for l.off < len(src) {
		c := src[l.off]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			l.off++
		case c == '\n':
			if l.insertSemi {
				l.insertSemi = false
				t := tok{kind: tSemi, start: l.off, end: l.off, line: l.line}
				l.off++
				l.line++
				return t
			}
			l.off++
			l.line++
		case c == '/' && l.off+1 < len(src) && src[l.off+1] == '/':
			for l.off < len(src) && src[l.off] != '\n' {
				l.off++
			}
		case c == '/' && l.off+1 < len(src) && src[l.off+1] == '*':
			start, line := l.off, l.line
			l.off += 2
			nl := false
			for {
				if l.off+1 >= len(src) {
					return tok{kind: tBadToken}
				}
				if src[l.off] == '*' && src[l.off+1] == '/' {
					l.off += 2
					break
				}
				if src[l.off] == '\n' {
					l.line++
					nl = true
				}
				l.off++
			}
			if nl && l.insertSemi {
				l.insertSemi = false
				return tok{kind: tSemi, start: start, end: start, line: line}
			}
		default:
			return l.token()
		}
	}
	if l.insertSemi {
		l.insertSemi = false
		return tok{kind: tSemi, start: l.off, end: l.off, line: l.line}
	}
	return tok{kind: tEOF, start: l.off, end: l.off, line: l.line}
}

// token reads the token at l.off, which is not space or a comment.
func (l *lexer) token() tok {
	src, start := l.src, l.off
	t := tok{start: start, line: l.line}
	c := src[start]
	l.insertSemi = false
	switch {
	case isLetter(c):
		l.off++
		for l.off < len(src) && identByte[src[l.off]] {
			l.off++
		}
		if l.off < len(src) && src[l.off] >= 0x80 {
			return tok{kind: tBadToken}
		}
		t.kind = tIdent
		if kw := keyword(src[start:l.off]); kw != 0 {
			t.kind, t.op = tKeyword, kw
			l.insertSemi = kw == kwBreak || kw == kwContinue || kw == kwFallthrough || kw == kwReturn
		} else {
			l.insertSemi = true
		}
	case isDigit(c) || c == '.' && start+1 < len(src) && isDigit(src[start+1]):
		if !l.number() {
			return tok{kind: tBadToken}
		}
		t.kind, l.insertSemi = tNumber, true
	case c == '"' || c == '\'':
		if !l.quoted(c) {
			return tok{kind: tBadToken}
		}
		t.kind, l.insertSemi = tString, true
		if c == '\'' {
			t.kind = tChar
		}
	case c == '`':
		l.off++
		for l.off < len(src) && src[l.off] != '`' {
			if src[l.off] == '\n' {
				l.line++
			}
			l.off++
		}
		if l.off == len(src) {
			return tok{kind: tBadToken}
		}
		l.off++
		t.kind, l.insertSemi = tString, true
	default:
		op, n := operator(src[start:])
		if n == 0 {
			return tok{kind: tBadToken}
		}
		l.off += n
		t.kind, t.op = tOp, op
		l.insertSemi = op == opInc || op == opDec || op == ')' || op == ']' || op == '}'
		if op == ';' {
			t.kind = tSemi
		}
	}
	t.end = l.off
	return t
}

// number reads a number literal in the forms go/scanner surely accepts
// as one token: decimal integers and floats with an optional exponent,
// 0x hex, 0o and 0-prefixed octal and 0b binary integers, each optionally
// imaginary. Anything else (underscores, hex floats, 08) is false.
func (l *lexer) number() bool {
	src := l.src
	digits := func(ok func(byte) bool) int {
		n := 0
		for l.off < len(src) && ok(src[l.off]) {
			l.off++
			n++
		}
		return n
	}
	isOct := func(c byte) bool { return '0' <= c && c <= '7' }
	isBin := func(c byte) bool { return c == '0' || c == '1' }
	float := true
	if src[l.off] == '0' && l.off+1 < len(src) {
		switch src[l.off+1] {
		case 'x', 'X', 'o', 'O', 'b', 'B':
			ok := isHex
			switch src[l.off+1] {
			case 'o', 'O':
				ok = isOct
			case 'b', 'B':
				ok = isBin
			}
			l.off += 2
			if digits(ok) == 0 {
				return false
			}
			float = false
		default:
			if isDigit(src[l.off+1]) {
				l.off++
				digits(isOct)
				if l.off < len(src) && (isDigit(src[l.off]) || src[l.off] == '.' || src[l.off] == 'e' || src[l.off] == 'E') {
					return false // 08, 01.5, 0e1: legal or not, go/parser decides
				}
				float = false
			}
		}
	}
	if float {
		digits(isDigit)
		if l.off < len(src) && src[l.off] == '.' {
			l.off++
			digits(isDigit)
		}
		if l.off < len(src) && (src[l.off] == 'e' || src[l.off] == 'E') {
			l.off++
			if l.off < len(src) && (src[l.off] == '+' || src[l.off] == '-') {
				l.off++
			}
			if digits(isDigit) == 0 {
				return false
			}
		}
	}
	if l.off < len(src) && src[l.off] == 'i' {
		l.off++
	}
	return l.off == len(src) || !(isLetter(src[l.off]) || isDigit(src[l.off]) || src[l.off] == '.' || src[l.off] >= 0x80)
}

// quoted reads an interpreted string ("...") or a rune literal ('x') whose
// escapes are all valid; a rune literal holds exactly one character.
func (l *lexer) quoted(q byte) bool {
	src := l.src
	l.off++
	n := 0
	for {
		if l.off >= len(src) || src[l.off] == '\n' {
			return false
		}
		c := src[l.off]
		if c == q {
			l.off++
			break
		}
		n++
		if c != '\\' {
			if c < 0x80 {
				l.off++
				continue
			}
			l.off++ // the file is valid UTF-8: skip the rune's continuation bytes
			for l.off < len(src) && src[l.off]&0xC0 == 0x80 {
				l.off++
			}
			continue
		}
		if l.off+1 >= len(src) {
			return false
		}
		e := src[l.off+1]
		l.off += 2
		switch e {
		case 'a', 'b', 'f', 'n', 'r', 't', 'v', '\\':
		case '\'', '"':
			if e != q {
				return false
			}
		case 'x':
			if !l.hexDigits(2, 0xFF) {
				return false
			}
		case 'u':
			if !l.hexDigits(4, 0x10FFFF) {
				return false
			}
		case 'U':
			if !l.hexDigits(8, 0x10FFFF) {
				return false
			}
		default:
			if e < '0' || e > '3' || l.off+1 >= len(src) || src[l.off] < '0' || src[l.off] > '7' || src[l.off+1] < '0' || src[l.off+1] > '7' {
				return false
			}
			l.off += 2
		}
	}
	return q == '"' || n == 1
}

// hexDigits reads n hex digits of a value at most limit and not a
// surrogate half.
func (l *lexer) hexDigits(n int, limit uint32) bool {
	if l.off+n > len(l.src) {
		return false
	}
	var v uint32
	for _, c := range l.src[l.off : l.off+n] {
		switch {
		case isDigit(c):
			v = v<<4 | uint32(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | uint32(c-'a'+10)
		case 'A' <= c && c <= 'F':
			v = v<<4 | uint32(c-'A'+10)
		default:
			return false
		}
	}
	l.off += n
	return v <= limit && (v < 0xD800 || v > 0xDFFF)
}
