package pyscan

import (
	"unicode/utf8"
)

// stopDouble and stopSingle mark the bytes that end a run of plain string
// content: the quote, a backslash, a line end.
var stopDouble, stopSingle [256]bool

func init() {
	for _, c := range []byte{'\\', '\n', '\r'} {
		stopDouble[c], stopSingle[c] = true, true
	}
	stopDouble['"'], stopSingle['\''] = true, true
}

// str lexes a string literal whose prefix starts at start and whose opening
// quote is at q; flags are the prefix's pf* flags.
func (lx *lexer) str(start, q int, flags uint8) {
	if flags&pfF != 0 {
		lx.fstring(start, q, flags)
		return
	}
	src := lx.src
	n := len(src)
	quote := src[q]
	line := lx.line
	triple := q+2 < n && src[q+1] == quote && src[q+2] == quote
	p := q + 1
	if triple {
		p = q + 3
	}
	bodyStart := p
	escapes := false
	stop := &stopDouble
	if quote == '\'' {
		stop = &stopSingle
	}
	for {
		for p < n && !stop[src[p]] {
			p++
		}
		if p >= n {
			lx.pos = p
			lx.unterminated(line, quote, triple)
			return
		}
		c := src[p]
		if c == quote {
			if !triple {
				break
			}
			if p+2 < n && src[p+1] == quote && src[p+2] == quote {
				break
			}
			p++
			continue
		}
		if c == '\\' {
			escapes = true
			p++
			if p >= n {
				continue
			}
			c = src[p]
			if c != '\n' && c != '\r' {
				p++
				continue
			}
		} else if !triple {
			lx.pos = p
			lx.unterminated(line, quote, false)
			return
		}
		lx.pos = p
		lx.newline()
		p = lx.pos
	}
	body := src[bodyStart:p]
	if triple {
		p += 3
	} else {
		p++
	}
	lx.pos = p
	lx.checkBody(body, flags, escapes, line)
	var tf uint8
	if flags&pfBytes != 0 {
		tf = flagBytes
	}
	lx.emit(tkString, 0, tf, line, start, p)
}

// unterminated reports a string literal that runs into the end of its line
// (single quotes) or of the input (triple quotes).
func (lx *lexer) unterminated(line int32, quote byte, triple bool) {
	if k := len(lx.fquotes); k > 0 && lx.fquotes[k-1].q == quote && lx.fquotes[k-1].triple == triple {
		lx.fail(line, "f-string: expecting '}'")
		return
	}
	detected := lx.detectedLine()
	if triple {
		lx.fail(line, "unterminated triple-quoted string literal (detected at line %d)", detected)
	} else {
		lx.fail(line, "unterminated string literal (detected at line %d)", detected)
	}
}

// detectedLine is the line CPython names as where it noticed an unterminated
// literal: the current line, or the last line when at the end of input.
func (lx *lexer) detectedLine() int32 {
	n := len(lx.src)
	if lx.pos >= n && n > 0 && (lx.src[n-1] == '\n' || lx.src[n-1] == '\r') {
		return lx.line - 1
	}
	return lx.line
}

// checkBody applies the checks CPython's parser makes when it decodes a
// literal: bytes hold only ASCII, text is valid UTF-8, escapes are complete.
// Being the parser's, not the tokenizer's, its errors are deferred.
func (lx *lexer) checkBody(body []byte, flags uint8, escapes bool, line int32) {
	if flags&pfBytes != 0 {
		for _, c := range body {
			if c >= 0x80 {
				lx.postpone(line, "bytes can only contain ASCII literal characters")
				return
			}
		}
	} else if !utf8.Valid(body) {
		i := 0
		for i < len(body) {
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		lx.postpone(line, "(unicode error) 'utf-8' codec can't decode byte 0x%02x in position %d: invalid utf-8", body[i], i)
		return
	}
	if !escapes || flags&pfRaw != 0 {
		return
	}
	for i := 0; i < len(body); i++ {
		if body[i] != '\\' {
			continue
		}
		if msg := escapeError(body, i, flags&pfBytes != 0); msg != "" {
			lx.postpone(line, "%s", msg)
			return
		}
		i++
	}
}

const malformedN = "(unicode error) 'unicodeescape' codec can't decode bytes: malformed \\N character escape"

// escapeError checks the escape sequence at body[i] == '\\' of a non-raw
// literal and returns what CPython's decoder would complain about, or "".
// Unknown escapes are only warnings; \N{...} names are not looked up.
func escapeError(body []byte, i int, isBytes bool) string {
	if i+1 >= len(body) {
		return ""
	}
	hex := func(k int) bool {
		if i+2+k > len(body) {
			return false
		}
		for _, c := range body[i+2 : i+2+k] {
			if !isHexDigit(c) {
				return false
			}
		}
		return true
	}
	switch body[i+1] {
	case 'x':
		if !hex(2) {
			if isBytes {
				return "(value error) invalid \\x escape"
			}
			return "(unicode error) 'unicodeescape' codec can't decode bytes: truncated \\xXX escape"
		}
	case 'u':
		if !isBytes && !hex(4) {
			return "(unicode error) 'unicodeescape' codec can't decode bytes: truncated \\uXXXX escape"
		}
	case 'U':
		if isBytes {
			return ""
		}
		if !hex(8) {
			return "(unicode error) 'unicodeescape' codec can't decode bytes: truncated \\UXXXXXXXX escape"
		}
		v := 0
		for _, c := range body[i+2 : i+10] {
			v = v<<4 | int(hexVal(c))
		}
		if v > utf8.MaxRune {
			return "(unicode error) 'unicodeescape' codec can't decode bytes: illegal Unicode character"
		}
	case 'N':
		if isBytes {
			return ""
		}
		j := i + 2
		if j >= len(body) || body[j] != '{' {
			return malformedN
		}
		k := j + 1
		for k < len(body) && body[k] != '}' {
			k++
		}
		if k >= len(body) || k == j+1 {
			return malformedN
		}
	}
	return ""
}

func hexVal(c byte) byte {
	if isDigit(c) {
		return c - '0'
	}
	return (c | 0x20) - 'a' + 10
}

// fstring lexes an f-string or t-string (PEP 701) as one token, checking its
// replacement fields, which hold arbitrary code, nested strings of any quote
// and nested f-strings.
func (lx *lexer) fstring(start, q int, flags uint8) {
	if len(lx.fquotes)+1 >= maxFStringNest {
		lx.fail(lx.line, "too many nested f-strings")
		return
	}
	src := lx.src
	quote := src[q]
	fq := fquote{q: quote, line: lx.line}
	fq.triple = q+2 < len(src) && src[q+1] == quote && src[q+2] == quote
	lx.pos = q + 1
	if fq.triple {
		lx.pos = q + 3
	}
	mark := lx.ntok
	lx.fquotes = append(lx.fquotes, fq)
	ok := lx.fstrLiteral(fq, flags&pfRaw != 0, false, 0)
	lx.fquotes = lx.fquotes[:len(lx.fquotes)-1]
	if !ok {
		return
	}
	lx.ntok = mark
	if b := src[start:lx.pos]; !utf8.Valid(b) {
		lx.postpone(fq.line, "(unicode error) 'utf-8' codec can't decode bytes in f-string: invalid utf-8")
	}
	lx.emit(tkString, 0, 0, fq.line, start, lx.pos)
}

// fstrLiteral lexes the literal text of an f-string from lx.pos. Outside a
// format spec it returns after the closing quotes; in a format spec (spec)
// it returns at the '}' that closes the replacement field. Fields opened
// here have nesting index nest.
func (lx *lexer) fstrLiteral(fq fquote, raw, spec bool, nest int) bool {
	src := lx.src
	n := len(src)
	unicodeEscape := false
	for lx.err == nil {
		p := lx.fstrStop(fq.q)
		lx.pos = p
		if p >= n {
			lx.fstrUnterminated(fq)
			return false
		}
		c := src[p]
		switch c {
		case fq.q:
			if !fq.triple || p+2 < n && src[p+1] == c && src[p+2] == c {
				if spec {
					lx.fail(lx.line, "f-string: expecting '}'")
					return false
				}
				if unicodeEscape {
					lx.postpone(lx.line, malformedN)
				}
				lx.pos = p + 1
				if fq.triple {
					lx.pos = p + 3
				}
				return true
			}
			lx.pos = p + 1
		case '\n', '\r':
			if !fq.triple {
				if spec {
					lx.fail(lx.line, "f-string: newlines are not allowed in format specifiers for single quoted f-strings")
				} else {
					lx.fstrUnterminated(fq)
				}
				return false
			}
			lx.newline()
		case '{':
			if unicodeEscape {
				lx.postpone(lx.line, malformedN)
				unicodeEscape = false
			}
			if !spec && p+1 < n && src[p+1] == '{' {
				lx.pos = p + 2
				continue
			}
			if !lx.field(fq, raw, nest) {
				return false
			}
		case '}':
			if unicodeEscape {
				unicodeEscape = false
				lx.pos = p + 1
				continue
			}
			if spec {
				return true
			}
			if p+1 < n && src[p+1] == '}' {
				lx.pos = p + 2
				continue
			}
			lx.fail(lx.line, "f-string: single '}' is not allowed")
			return false
		case '\\':
			if lx.fstrBackslash(p, raw) {
				unicodeEscape = true
			}
		}
	}
	return false
}

// fstrStop returns the offset of the next byte from lx.pos that the literal
// text of an f-string quoted with q cannot simply take (a quote, a brace, a
// backslash or a line end), or len(lx.src).
func (lx *lexer) fstrStop(q byte) int {
	src := lx.src
	p := lx.pos
	for p < len(src) {
		c := src[p]
		if c == q || c == '{' || c == '}' || c == '\\' || c == '\n' || c == '\r' {
			break
		}
		p++
	}
	return p
}

// fstrBackslash lexes the backslash at p in the literal text of an f-string
// (escape errors are postponed, as CPython's parser reports them) and
// reports whether it opens a \N{...} escape.
func (lx *lexer) fstrBackslash(p int, raw bool) bool {
	src := lx.src
	n := len(src)
	if p+1 >= n {
		lx.pos = p + 1
		return false
	}
	d := src[p+1]
	switch {
	case d == '{' || d == '}':
		lx.pos = p + 1 // the brace is itself: a field or an escaped brace
	case d == '\n' || d == '\r':
		lx.pos = p + 1
		lx.newline()
	case !raw && d == 'N' && p+2 < n && src[p+2] == '{':
		if p+3 < n && src[p+3] == '}' {
			lx.postpone(lx.line, malformedN)
		}
		lx.pos = p + 3
		return true
	default:
		if !raw {
			if msg := escapeError(src[:n], p, false); msg != "" {
				lx.postpone(lx.line, "%s", msg)
			}
		}
		lx.pos = p + 2
	}
	return false
}

func (lx *lexer) fstrUnterminated(fq fquote) {
	if fq.triple {
		lx.fail(fq.line, "unterminated triple-quoted f-string literal (detected at line %d)", lx.detectedLine())
	} else {
		lx.fail(fq.line, "unterminated f-string literal (detected at line %d)", lx.detectedLine())
	}
}

// field lexes a replacement field from its '{' through its '}': the
// expression, an optional !conversion and an optional :format spec. Errors
// CPython's parser (not its tokenizer) reports are deferred (see lexer.later).
func (lx *lexer) field(fq fquote, raw bool, nest int) bool {
	if nest >= maxFieldNest {
		lx.fail(lx.line, "f-string: expressions nested too deeply")
		return false
	}
	src := lx.src
	lx.open('{')
	if lx.err != nil {
		return false
	}
	level := lx.level
	mark := lx.ntok
	lx.loop(level)
	if lx.err != nil {
		return false
	}
	if lx.pos >= len(src) {
		lx.fail(fq.line, "f-string: expecting '}'")
		return false
	}
	if lx.ntok == mark {
		lx.postpone(lx.line, "f-string: valid expression required before '%c'", src[lx.pos])
	}
	if k, msg := badTokens(src, lx.toks[mark:lx.ntok], false); k >= 0 {
		lx.postpone(lx.toks[mark+k].line, "%s", msg)
	}
	depth := 0
	for _, t := range lx.toks[mark:lx.ntok] {
		if t.kind == tkOp {
			switch t.sub {
			case opLPar, opLSqb, opLBrace:
				depth++
			case opRPar, opRSqb, opRBrace:
				depth--
			}
		} else if t.kind == tkName && t.sub == kwLambda && depth == 0 {
			lx.postpone(t.line, "f-string: lambda expressions are not allowed without parentheses")
		}
	}
	for src[lx.pos] == '!' {
		if !lx.conversion(level) {
			return false
		}
	}
	if src[lx.pos] == ':' {
		lx.pos++
		if !lx.fstrLiteral(fq, raw, true, nest+1) {
			return false
		}
	}
	lx.close('}')
	return lx.err == nil
}

// conversion lexes "!r", "!s" or "!a" after a field's expression, up to the
// next ':', '}' or '!' at the field's level; anything else is a (deferred)
// error.
func (lx *lexer) conversion(level int) bool {
	src := lx.src
	lx.pos++
	p := lx.pos
	for p < len(src) && src[p] < 0x80 && identChar[src[p]] {
		p++
	}
	switch conv := string(src[lx.pos:p]); {
	case p == lx.pos && p < len(src) && (src[p] == '}' || src[p] == ':'):
		lx.postpone(lx.line, "f-string: missing conversion character")
	case p == lx.pos:
		lx.postpone(lx.line, "f-string: conversion type must come right after the exclamanation mark")
	case conv != "r" && conv != "s" && conv != "a":
		lx.postpone(lx.line, "f-string: invalid conversion character %q: expected 's', 'r', or 'a'", conv)
	}
	lx.pos = p
	mark := lx.ntok
	lx.loop(level)
	if lx.err != nil {
		return false
	}
	if lx.pos >= len(src) {
		lx.fail(lx.line, "f-string: expecting '}'")
		return false
	}
	if lx.ntok != mark || src[lx.pos] == '!' {
		lx.postpone(lx.line, "f-string: expecting '}'")
	}
	return true
}
