package pyscan

import (
	"bytes"
	"fmt"
)

// CPython's tokenizer limits (Parser/tokenizer.h), enforced the same way.
const (
	maxIndent      = 100 // MAXINDENT: nested indentation levels
	maxLevel       = 200 // MAXLEVEL: nested brackets
	maxFStringNest = 150 // MAXFSTRINGLEVEL: nested f-strings
	maxFieldNest   = 3   // MAX_EXPR_NESTING: replacement fields inside format specs
	tabSize        = 8
)

// syntaxError is where and why a file does not parse.
type syntaxError struct {
	line int32
	msg  string
	// lazy marks tokenizer errors CPython only raises when its parser asks
	// for the offending token, found on line at (bad continuation,
	// indentation, end of input): a grammar error found first wins over
	// them, and if brackets are open (paren and parenMsg: the innermost) the
	// unclosed bracket is reported instead when that grammar error lies
	// after it.
	lazy     bool
	at       int32
	paren    int32
	parenMsg string
}

// lexer turns decoded source into tokens the way CPython's tokenizer does:
// indentation stack with tab/space consistency, implicit joining inside
// brackets, backslash continuations, every string prefix, PEP 701 f-strings.
// It stops at the first tokenizer error, which it records in err.
type lexer struct {
	src  []byte
	pos  int
	line int32
	// toks[:ntok] are the tokens so far. Appending by index, with toks
	// replaced only when it grows, keeps the hot path free of slice-header
	// (pointer) stores.
	toks []token
	ntok int
	err  *syntaxError
	// later is the first error CPython's parser, not its tokenizer, would
	// report inside a token (a bad escape, bytes that are not ASCII, an
	// empty f-string field). CPython reports any tokenizer error in the file
	// before it, and a grammar error before it on an earlier line, so the
	// lexer goes on and Scan decides.
	later *syntaxError
	atBOL bool

	indents    [maxIndent + 1]int32
	altIndents [maxIndent + 1]int32
	nindent    int

	parens     [maxLevel]byte
	parenLines [maxLevel]int32
	level      int

	// fquotes holds the quote character and size of each enclosing f-string,
	// innermost last, so an unterminated nested string can be reported as a
	// missing '}' the way CPython does.
	fquotes []fquote
}

type fquote struct {
	q      byte
	triple bool
	line   int32
}

// reset prepares the lexer for src, keeping its buffers.
func (lx *lexer) reset(src []byte) {
	lx.src = src
	lx.pos = 0
	lx.line = 1
	lx.ntok = 0
	lx.err, lx.later = nil, nil
	lx.atBOL = true
	lx.nindent = 0
	lx.indents[0], lx.altIndents[0] = 0, 0
	lx.level = 0
	lx.fquotes = lx.fquotes[:0]
}

// failLazy records a lazy tokenizer error (see syntaxError.lazy).
func (lx *lexer) failLazy(line int32, msg string) {
	if lx.err == nil {
		lx.err = &syntaxError{line: line, msg: msg, lazy: true, at: lx.line}
		if lx.pos >= len(lx.src) {
			lx.err.at = lx.detectedLine()
		}
		if lx.level > 0 {
			lx.err.paren = lx.parenLines[lx.level-1]
			lx.err.parenMsg = fmt.Sprintf("'%c' was never closed", lx.parens[lx.level-1])
		}
	}
}

func (lx *lexer) fail(line int32, format string, args ...any) {
	if lx.err == nil {
		msg := format
		if len(args) > 0 {
			msg = fmt.Sprintf(format, args...)
		}
		lx.err = &syntaxError{line: line, msg: msg}
	}
}

// postpone records a parser-level error found while lexing (see later).
func (lx *lexer) postpone(line int32, format string, args ...any) {
	if lx.later == nil {
		lx.later = &syntaxError{line: line, msg: fmt.Sprintf(format, args...)}
	}
}

func (lx *lexer) emit(kind tokKind, sub, flags uint8, line int32, start, end int) {
	if lx.ntok == len(lx.toks) {
		lx.grow()
	}
	lx.toks[lx.ntok] = token{kind: kind, sub: sub, flags: flags, line: line, start: int32(start), end: int32(end)}
	lx.ntok++
}

func (lx *lexer) grow() {
	n := max(2*len(lx.toks), len(lx.src)/4, 1024)
	toks := make([]token, n)
	copy(toks, lx.toks[:lx.ntok])
	lx.toks = toks
}

// tokens returns the tokens lexed so far.
func (lx *lexer) tokens() []token { return lx.toks[:lx.ntok] }

// tokenize runs the lexer over the whole source. On success the last token
// is tkEOF, preceded by a tkDedent per open indentation level.
func (lx *lexer) tokenize() {
	lx.loop(0)
	if lx.err != nil {
		return
	}
	if lx.level > 0 {
		lx.failLazy(lx.parenLines[lx.level-1], fmt.Sprintf("'%c' was never closed", lx.parens[lx.level-1]))
		return
	}
	if n := lx.ntok; n > 0 && lx.toks[n-1].kind != tkNewline && lx.toks[n-1].kind != tkDedent && lx.toks[n-1].kind != tkIndent {
		// CPython appends a newline to source that lacks one.
		lx.emit(tkNewline, 0, 0, lx.line, lx.pos, lx.pos)
	}
	// At the end of input CPython's line number stays on the last line.
	last := lx.detectedLine()
	for ; lx.nindent > 0; lx.nindent-- {
		lx.emit(tkDedent, 0, 0, last, lx.pos, lx.pos)
	}
	lx.emit(tkEOF, 0, 0, last, lx.pos, lx.pos)
}

// loop tokenises until the end of the source or, inside an f-string
// replacement field (field > 0 is the bracket level of the field's '{'),
// until the field's closing '}', its format spec ':' or its conversion '!'
// at the field's own bracket level.
func (lx *lexer) loop(field int) {
	src := lx.src
	n := len(src)
	for lx.err == nil {
		if lx.atBOL {
			lx.atBOL = false
			if !lx.indentation() {
				continue
			}
		}
		p := lx.pos
		for p < n && charClass[src[p]] == ccSpace {
			p++
		}
		lx.pos = p
		if p >= n {
			return
		}
		c := src[p]
		if field > 0 && lx.level == field && (c == '}' || c == ':' || c == '!' && (p+1 >= n || src[p+1] != '=')) {
			return
		}
		switch charClass[c] {
		case ccIdent, ccHigh:
			lx.name()
		case ccDigit:
			lx.number()
		case ccNewline:
			if lx.level == 0 {
				lx.emit(tkNewline, 0, 0, lx.line, p, p)
			}
			lx.newline()
			lx.atBOL = true
		case ccHash:
			lx.pos = lx.lineEnd(p)
		case ccQuote:
			lx.str(p, p, 0)
		case ccDot:
			lx.dot()
		case ccBackslash:
			lx.continuation()
		case ccOp:
			lx.op()
		case ccBadOp:
			lx.emit(tkOp, opInvalid, 0, lx.line, p, p+1)
			lx.pos++
		default: // ASCII control characters
			lx.fail(lx.line, "invalid non-printable character U+%04X", c)
		}
	}
}

// lineEnd returns the offset of the line terminator at or after p (or len).
func (lx *lexer) lineEnd(p int) int {
	rest := lx.src[p:]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		i = len(rest)
	}
	if j := bytes.IndexByte(rest[:i], '\r'); j >= 0 {
		i = j
	}
	return p + i
}

// newline consumes one line terminator (\n, \r\n or a lone \r) at lx.pos.
func (lx *lexer) newline() {
	if lx.src[lx.pos] == '\r' && lx.pos+1 < len(lx.src) && lx.src[lx.pos+1] == '\n' {
		lx.pos++
	}
	lx.pos++
	lx.line++
}

// continuation consumes a backslash and the line terminator that must follow.
func (lx *lexer) continuation() bool {
	line := lx.line
	lx.pos++
	if lx.pos >= len(lx.src) {
		// CPython sees the newline it appends, then the end of input.
		lx.failLazy(line, "unexpected EOF while parsing")
		return false
	}
	if c := lx.src[lx.pos]; c != '\n' && c != '\r' {
		lx.failLazy(line, "unexpected character after line continuation character")
		return false
	}
	lx.newline()
	if lx.pos >= len(lx.src) {
		lx.failLazy(line, "unexpected EOF while parsing")
		return false
	}
	return true
}

// indentation measures the indentation of a new line and emits INDENT or
// DEDENT tokens. It returns false when the line is blank or a comment (the
// line is consumed) or on error.
func (lx *lexer) indentation() bool {
	src := lx.src
	n := len(src)
	col, alt, contCol := int32(0), int32(0), int32(0)
	for lx.pos < n {
		c := src[lx.pos]
		if c == ' ' {
			col++
			alt++
		} else if c == '\t' {
			col = (col/tabSize + 1) * tabSize
			alt++
		} else if c == '\f' {
			col, alt = 0, 0
		} else if c == '\\' {
			// The first backslash fixes the indentation of what follows
			// (like CPython, a backslash in column 0 fixes nothing).
			if contCol == 0 {
				contCol = col
			}
			if !lx.continuation() {
				return false
			}
			continue
		} else {
			break
		}
		lx.pos++
	}
	if lx.pos >= n {
		return true // end of input: loop returns, tokenize closes the blocks
	}
	c := src[lx.pos]
	if c == '#' || c == '\n' || c == '\r' {
		lx.pos = lx.lineEnd(lx.pos)
		if lx.pos < n {
			lx.newline()
			lx.atBOL = true
		}
		return false
	}
	if lx.level > 0 {
		return true
	}
	if contCol != 0 {
		col, alt = contCol, contCol
	}
	return lx.indentTo(col, alt)
}

// indentTo compares a logical line's indentation (col, and alt counting a
// tab as one column) with the open blocks' and emits the INDENT or DEDENT
// tokens it takes. It returns false on an inconsistent indentation.
func (lx *lexer) indentTo(col, alt int32) bool {
	top := lx.nindent
	switch {
	case col == lx.indents[top]:
		if alt != lx.altIndents[top] {
			lx.failLazy(lx.line, "inconsistent use of tabs and spaces in indentation")
			return false
		}
	case col > lx.indents[top]:
		if top+1 >= maxIndent {
			lx.failLazy(lx.line, "too many levels of indentation")
			return false
		}
		if alt <= lx.altIndents[top] {
			lx.failLazy(lx.line, "inconsistent use of tabs and spaces in indentation")
			return false
		}
		lx.nindent++
		lx.indents[lx.nindent], lx.altIndents[lx.nindent] = col, alt
		lx.emit(tkIndent, 0, 0, lx.line, lx.pos, lx.pos)
	default:
		for lx.nindent > 0 && col < lx.indents[lx.nindent] {
			lx.nindent--
			lx.emit(tkDedent, 0, 0, lx.line, lx.pos, lx.pos)
		}
		if col != lx.indents[lx.nindent] {
			lx.failLazy(lx.line, "unindent does not match any outer indentation level")
			return false
		}
		if alt != lx.altIndents[lx.nindent] {
			lx.failLazy(lx.line, "inconsistent use of tabs and spaces in indentation")
			return false
		}
	}
	return true
}
