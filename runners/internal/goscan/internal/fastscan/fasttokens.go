package fastscan

// How the fast path's lexer tells keywords and operators.

// keyword returns the keyword s is, or 0. A switch on the string, which
// the compiler turns into a search without hashing: a map lookup per
// identifier cost a tenth of the whole scan.
func keyword(s []byte) byte {
	if len(s) < 2 || len(s) > 11 || s[0] < 'b' || s[0] > 'v' {
		return 0
	}
	switch string(s) {
	case "break":
		return kwBreak
	case "case":
		return kwCase
	case "chan":
		return kwChan
	case "const":
		return kwConst
	case "continue":
		return kwContinue
	case "default":
		return kwDefault
	case "defer":
		return kwDefer
	case "else":
		return kwElse
	case "fallthrough":
		return kwFallthrough
	case "for":
		return kwFor
	case "func":
		return kwFunc
	case "go":
		return kwGo
	case "goto":
		return kwGoto
	case "if":
		return kwIf
	case "import":
		return kwImport
	case "interface":
		return kwInterface
	case "map":
		return kwMap
	case "package":
		return kwPackage
	case "range":
		return kwRange
	case "return":
		return kwReturn
	case "select":
		return kwSelect
	case "struct":
		return kwStruct
	case "switch":
		return kwSwitch
	case "type":
		return kwType
	case "var":
		return kwVar
	}
	return 0
}

// identByte marks the bytes an ASCII identifier is made of.
var identByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isLetter(byte(c)) || isDigit(byte(c))
	}
	return t
}()

// operator returns the operator at the start of s and its length; 0 when
// there is none.
func operator(s []byte) (op byte, n int) {
	c := s[0]
	at := func(i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	switch c {
	case '(', ')', '[', ']', '{', '}', ',', ';', '~':
		return c, 1
	case '.':
		if at(1) == '.' && at(2) == '.' {
			return opEllip, 3
		}
		return '.', 1
	case ':':
		if at(1) == '=' {
			return opDefine, 2
		}
		return ':', 1
	case '+', '-':
		if at(1) == c {
			if c == '+' {
				return opInc, 2
			}
			return opDec, 2
		}
	case '<':
		switch at(1) {
		case '-':
			return opArrow, 2
		case '<':
			if at(2) == '=' {
				return opAssignX, 3
			}
			return opShl, 2
		case '=':
			return opLeq, 2
		}
		return '<', 1
	case '>':
		switch at(1) {
		case '>':
			if at(2) == '=' {
				return opAssignX, 3
			}
			return opShr, 2
		case '=':
			return opGeq, 2
		}
		return '>', 1
	case '&':
		switch at(1) {
		case '&':
			return opLand, 2
		case '^':
			if at(2) == '=' {
				return opAssignX, 3
			}
			return opAndNot, 2
		}
	case '|':
		if at(1) == '|' {
			return opLor, 2
		}
	case '=':
		if at(1) == '=' {
			return opEql, 2
		}
		return '=', 1
	case '!':
		if at(1) == '=' {
			return opNeq, 2
		}
		return '!', 1
	case '*', '/', '%', '^':
	default:
		return 0, 0
	}
	if at(1) == '=' {
		return opAssignX, 2
	}
	return c, 1
}
