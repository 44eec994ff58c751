package pyscan

// dot lexes '.', '...' or a number starting with a dot.
func (lx *lexer) dot() {
	p := lx.pos
	src := lx.src
	if p+1 < len(src) && isDigit(src[p+1]) {
		lx.number()
		return
	}
	if p+2 < len(src) && src[p+1] == '.' && src[p+2] == '.' {
		lx.emit(tkOp, opEllipsis, 0, lx.line, p, p+3)
		lx.pos = p + 3
		return
	}
	lx.emit(tkOp, opDot, 0, lx.line, p, p+1)
	lx.pos = p + 1
}

// op lexes an operator or a bracket (longest match, as CPython does).
func (lx *lexer) op() {
	src := lx.src
	p := lx.pos
	c := src[p]
	var c1, c2 byte
	if p+1 < len(src) {
		c1 = src[p+1]
	}
	if p+2 < len(src) {
		c2 = src[p+2]
	}
	size, code := 1, opOther
	switch c {
	case '(', '[', '{':
		lx.open(c)
		return
	case ')', ']', '}':
		lx.close(c)
		return
	case ':':
		if c1 == '=' {
			size, code = 2, opWalrus
		} else {
			code = opColon
		}
	case ',':
		code = opComma
	case ';':
		code = opSemi
	case '@':
		if c1 == '=' {
			size = 2
		} else {
			code = opAt
		}
	case '=':
		if c1 == '=' {
			size = 2
		} else {
			code = opEqual
		}
	case '!':
		if c1 == '=' {
			size = 2
		} else {
			code = opInvalid
		}
	case '<':
		switch {
		case c1 == '<' && c2 == '=':
			size = 3
		case c1 == '<' || c1 == '=':
			size = 2
		case c1 == '>':
			size, code = 2, opInvalid // "<>" is only valid under barry_as_FLUFL
		}
	case '>':
		switch {
		case c1 == '>' && c2 == '=':
			size = 3
		case c1 == '>' || c1 == '=':
			size = 2
		}
	case '*':
		switch {
		case c1 == '*' && c2 == '=':
			size = 3
		case c1 == '*':
			size, code = 2, opDoubleStar
		case c1 == '=':
			size = 2
		default:
			code = opStar
		}
	case '/':
		switch {
		case c1 == '/' && c2 == '=':
			size = 3
		case c1 == '/' || c1 == '=':
			size = 2
		}
	case '-':
		if c1 == '>' {
			size, code = 2, opArrow
		} else if c1 == '=' {
			size = 2
		}
	case '+', '%', '&', '|', '^':
		if c1 == '=' {
			size = 2
		}
	case '~':
	default:
		lx.fail(lx.line, "invalid character '%c' (U+%04X)", c, c)
		return
	}
	lx.emit(tkOp, code, 0, lx.line, p, p+size)
	lx.pos = p + size
}

func (lx *lexer) open(c byte) {
	if lx.level >= maxLevel {
		lx.fail(lx.line, "too many nested parentheses")
		return
	}
	lx.parens[lx.level] = c
	lx.parenLines[lx.level] = lx.line
	lx.level++
	code := opLPar
	if c == '[' {
		code = opLSqb
	} else if c == '{' {
		code = opLBrace
	}
	lx.emit(tkOp, code, 0, lx.line, lx.pos, lx.pos+1)
	lx.pos++
}

func (lx *lexer) close(c byte) {
	if lx.level == 0 {
		lx.fail(lx.line, "unmatched '%c'", c)
		return
	}
	lx.level--
	open := lx.parens[lx.level]
	if open == '(' && c != ')' || open == '[' && c != ']' || open == '{' && c != '}' {
		if l := lx.parenLines[lx.level]; l != lx.line {
			lx.fail(lx.line, "closing parenthesis '%c' does not match opening parenthesis '%c' on line %d", c, open, l)
		} else {
			lx.fail(lx.line, "closing parenthesis '%c' does not match opening parenthesis '%c'", c, open)
		}
		return
	}
	code := opRPar
	if c == ']' {
		code = opRSqb
	} else if c == '}' {
		code = opRBrace
	}
	lx.emit(tkOp, code, 0, lx.line, lx.pos, lx.pos+1)
	lx.pos++
}
