package pyscan

import (
	"unicode"
	"unicode/utf8"
)

// String prefix flags.
const (
	pfRaw uint8 = 1 << iota
	pfBytes
	pfF // f-string or t-string: replacement fields are code
)

// stringPrefix reports whether b (one or two ASCII letters followed by a
// quote) is a valid string prefix, and its flags. Valid, in any case: b r u f
// t br rb fr rf tr rt. Anything else (ur, bu, fb...) is a name followed by a
// separate string, as in CPython.
func stringPrefix(b []byte) (uint8, bool) {
	var flags uint8
	var seenU, seenF bool
	for _, c := range b {
		switch c | 0x20 {
		case 'r':
			if flags&pfRaw != 0 || seenU {
				return 0, false
			}
			flags |= pfRaw
		case 'b':
			if flags&pfBytes != 0 || seenU || seenF {
				return 0, false
			}
			flags |= pfBytes
		case 'u':
			if len(b) != 1 {
				return 0, false
			}
			seenU = true
		case 'f', 't':
			if seenF || flags&pfBytes != 0 {
				return 0, false
			}
			seenF = true
			flags |= pfF
		default:
			return 0, false
		}
	}
	return flags, true
}

// name lexes an identifier, a keyword, or the prefix of a string literal.
func (lx *lexer) name() {
	src := lx.src
	n := len(src)
	start := lx.pos
	p := start
	nonASCII := false
	for p < n {
		c := src[p]
		if c >= 0x80 {
			nonASCII = true
		} else if !identChar[c] {
			break
		}
		p++
	}
	if p < n && p-start <= 2 && (src[p] == '"' || src[p] == '\'') && !nonASCII {
		if flags, ok := stringPrefix(src[start:p]); ok {
			lx.str(start, p, flags)
			return
		}
	}
	var kw, flags uint8
	if nonASCII {
		if !lx.verifyIdent(start, p) {
			return
		}
		flags = flagNonASCII
	} else {
		kw = keyword(src[start:p])
	}
	lx.emit(tkName, kw, flags, lx.line, start, p)
	lx.pos = p
}

// verifyIdent checks a name holding non-ASCII bytes the way CPython's
// verify_identifier does: valid UTF-8, an XID_Start (or '_') first and
// XID_Continue after.
func (lx *lexer) verifyIdent(start, end int) bool {
	b := lx.src[start:end]
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			lx.fail(lx.line, "(unicode error) 'utf-8' codec can't decode byte 0x%02x in position %d: invalid start byte", b[i], i)
			return false
		}
		ok := isXIDContinue(r)
		if i == 0 {
			ok = r == '_' || isXIDStart(r)
		}
		if !ok {
			if unicode.IsPrint(r) {
				lx.fail(lx.line, "invalid character '%c' (U+%04X)", r, r)
			} else {
				lx.fail(lx.line, "invalid non-printable character U+%04X", r)
			}
			return false
		}
		i += size
	}
	return true
}

// xidStartNot and xidContinueNot are the code points that are ID_Start
// (ID_Continue) but whose NFKC form is not, so that XID_Start (XID_Continue)
// leaves them out (Unicode Standard Annex #31, section 5.1).
var xidStartNot = map[rune]bool{
	0x037A: true, 0x0E33: true, 0x0EB3: true, 0x309B: true, 0x309C: true,
	0xFC5E: true, 0xFC5F: true, 0xFC60: true, 0xFC61: true, 0xFC62: true, 0xFC63: true,
	0xFDFA: true, 0xFDFB: true, 0xFE70: true, 0xFE72: true, 0xFE74: true, 0xFE76: true,
	0xFE78: true, 0xFE7A: true, 0xFE7C: true, 0xFE7E: true, 0xFF9E: true, 0xFF9F: true,
}

var xidContinueNot = map[rune]bool{
	0x037A: true, 0x309B: true, 0x309C: true,
	0xFC5E: true, 0xFC5F: true, 0xFC60: true, 0xFC61: true, 0xFC62: true, 0xFC63: true,
	0xFDFA: true, 0xFDFB: true, 0xFE70: true, 0xFE72: true, 0xFE74: true, 0xFE76: true,
	0xFE78: true, 0xFE7A: true, 0xFE7C: true, 0xFE7E: true,
}

func isIDStart(r rune) bool {
	if unicode.Is(unicode.Pattern_Syntax, r) || unicode.Is(unicode.Pattern_White_Space, r) {
		return false
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

// Go's tables are Unicode 15.0; CPython 3.13 uses 15.1, which added CJK
// Extension I (letters) and four characters to Other_ID_Continue. Names
// valid in the newest CPython are accepted.
const extIFirst, extILast = 0x2EBF0, 0x2EE5D

var continue151 = map[rune]bool{0x200C: true, 0x200D: true, 0x30FB: true, 0xFF65: true}

func isXIDStart(r rune) bool {
	return isIDStart(r) && !xidStartNot[r] || r >= extIFirst && r <= extILast
}

func isXIDContinue(r rune) bool {
	if xidContinueNot[r] {
		return false
	}
	if isIDStart(r) || continue151[r] || r >= extIFirst && r <= extILast {
		return true
	}
	if unicode.Is(unicode.Pattern_Syntax, r) || unicode.Is(unicode.Pattern_White_Space, r) {
		return false
	}
	return unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)
}

// number lexes a numeric literal with CPython's rules for underscores,
// prefixes, leading zeros and what may directly follow a number.
func (lx *lexer) number() {
	src := lx.src
	start := lx.pos
	p := start
	at := func(i int) byte {
		if i < len(src) {
			return src[i]
		}
		return 0
	}
	if src[p] == '.' {
		p, ok := lx.decimalTail(p + 1)
		if ok {
			lx.floatTail(start, p, true)
		}
		return
	}
	if src[p] != '0' {
		p, ok := lx.decimalTail(p)
		if ok {
			lx.floatTail(start, p, false)
		}
		return
	}
	switch at(p+1) | 0x20 {
	case 'x':
		lx.radix(start, p+2, isHexDigit, "hexadecimal", 0)
		return
	case 'o':
		lx.radix(start, p+2, func(c byte) bool { return c >= '0' && c <= '7' }, "octal", '7')
		return
	case 'b':
		lx.radix(start, p+2, func(c byte) bool { return c == '0' || c == '1' }, "binary", '1')
		return
	}
	// Zeros, then maybe an old-style octal (an error) or a float.
	p++
	for {
		if at(p) == '_' {
			p++
			if !isDigit(at(p)) {
				lx.fail(lx.line, "invalid decimal literal")
				return
			}
		}
		if at(p) != '0' {
			break
		}
		p++
	}
	nonzero := false
	if isDigit(at(p)) {
		nonzero = true
		var ok bool
		if p, ok = lx.decimalTail(p); !ok {
			return
		}
	}
	if c := at(p); nonzero && c != '.' && c|0x20 != 'e' && c|0x20 != 'j' {
		lx.fail(lx.line, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers")
		return
	}
	lx.floatTail(start, p, false)
}

// decimalTail consumes digits with single underscores between them from p.
func (lx *lexer) decimalTail(p int) (int, bool) {
	src := lx.src
	for {
		for p < len(src) && isDigit(src[p]) {
			p++
		}
		if p >= len(src) || src[p] != '_' {
			return p, true
		}
		p++
		if p >= len(src) || !isDigit(src[p]) {
			lx.fail(lx.line, "invalid decimal literal")
			return p, false
		}
	}
}

// radix lexes the digits of a 0x / 0o / 0b literal starting at p.
func (lx *lexer) radix(start, p int, digit func(byte) bool, kind string, maxDigit byte) {
	src := lx.src
	at := func(i int) byte {
		if i < len(src) {
			return src[i]
		}
		return 0
	}
	for {
		if at(p) == '_' {
			p++
		}
		if !digit(at(p)) {
			if c := at(p); maxDigit != 0 && isDigit(c) {
				lx.fail(lx.line, "invalid digit '%c' in %s literal", c, kind)
			} else {
				lx.fail(lx.line, "invalid %s literal", kind)
			}
			return
		}
		for digit(at(p)) {
			p++
		}
		if at(p) != '_' {
			break
		}
	}
	if c := at(p); maxDigit != 0 && isDigit(c) {
		lx.fail(lx.line, "invalid digit '%c' in %s literal", c, kind)
		return
	}
	if lx.endOfNumber(p, kind) {
		lx.emit(tkNumber, 0, 0, lx.line, start, p)
		lx.pos = p
	}
}

// floatTail lexes the fraction, exponent and imaginary suffix of a decimal
// literal whose integer part (or, when fraction, whose fraction) ends at p.
func (lx *lexer) floatTail(start, p int, fraction bool) {
	src := lx.src
	at := func(i int) byte {
		if i < len(src) {
			return src[i]
		}
		return 0
	}
	if !fraction && at(p) == '.' {
		p++
		if isDigit(at(p)) {
			var ok bool
			if p, ok = lx.decimalTail(p); !ok {
				return
			}
		}
	}
	if c := at(p); c == 'e' || c == 'E' {
		e := p
		p++
		if c2 := at(p); c2 == '+' || c2 == '-' {
			p++
			if !isDigit(at(p)) {
				lx.fail(lx.line, "invalid decimal literal")
				return
			}
		} else if !isDigit(c2) {
			// "1else" is 1 followed by else; "1e" is an error.
			if lx.endOfNumber(e, "decimal") {
				lx.emit(tkNumber, 0, 0, lx.line, start, e)
				lx.pos = e
			}
			return
		}
		var ok bool
		if p, ok = lx.decimalTail(p); !ok {
			return
		}
	}
	kind := "decimal"
	if at(p)|0x20 == 'j' {
		p++
		kind = "imaginary"
	}
	if lx.endOfNumber(p, kind) {
		lx.emit(tkNumber, 0, 0, lx.line, start, p)
		lx.pos = p
	}
}

// endOfNumber is CPython's verify_end_of_number: a number may be followed
// directly by one of the keywords and, else, for, if, in, is, not, or
// (deprecated but valid) but not by another identifier character.
func (lx *lexer) endOfNumber(p int, kind string) bool {
	src := lx.src
	if p >= len(src) {
		return true
	}
	rest := src[p:]
	has := func(s string) bool { return len(rest) >= len(s) && string(rest[:len(s)]) == s }
	switch rest[0] {
	case 'a':
		if has("and") {
			return true
		}
	case 'e':
		if has("else") {
			return true
		}
	case 'f':
		if has("for") {
			return true
		}
	case 'i':
		if has("if") || has("in") || has("is") {
			return true
		}
	case 'o':
		if has("or") {
			return true
		}
	case 'n':
		if has("not") {
			return true
		}
	}
	if c := rest[0]; c < 0x80 && identChar[c] {
		lx.fail(lx.line, "invalid %s literal", kind)
		return false
	}
	return true
}
