package pyscan

// tokKind is the kind of a token, as CPython's tokenizer would name it. An
// f-string (or t-string) is a single tkString token here: the scanner checks
// its replacement fields while tokenising but the parser never needs them.
type tokKind uint8

const (
	tkEOF tokKind = iota
	tkName
	tkNumber
	tkString
	tkOp
	tkNewline
	tkIndent
	tkDedent
)

// token is one token: 16 bytes, no pointers, so a file's tokens live in one
// reusable slice. sub is the operator code for tkOp and the keyword code for
// tkName (kwNone for a plain identifier).
type token struct {
	kind  tokKind
	sub   uint8
	flags uint8
	_     uint8
	line  int32
	start int32
	end   int32
}

// Token flags.
const (
	flagNonASCII uint8 = 1 << iota // a name with non-ASCII letters: NFKC-normalise before use
	flagBytes                      // a bytes literal
)

// Operator codes (token.sub for tkOp). Operators the parser never asks about
// are opOther; opInvalid marks characters that are tokens to CPython but
// that no grammar rule accepts ($ ? ` a lone ! and <>).
const (
	opOther uint8 = iota
	opLPar
	opRPar
	opLSqb
	opRSqb
	opLBrace
	opRBrace
	opColon
	opComma
	opSemi
	opDot
	opEllipsis
	opAt
	opEqual
	opStar
	opDoubleStar
	opWalrus
	opArrow
	opInvalid
)

// Keyword codes (token.sub for tkName). The hard keywords come first; the
// soft keywords are identifiers whose meaning depends on where they stand.
const (
	kwNone uint8 = iota
	kwFalse
	kwNoneLit
	kwTrue
	kwAnd
	kwAs
	kwAssert
	kwAsync
	kwAwait
	kwBreak
	kwClass
	kwContinue
	kwDef
	kwDel
	kwElif
	kwElse
	kwExcept
	kwFinally
	kwFor
	kwFrom
	kwGlobal
	kwIf
	kwImport
	kwIn
	kwIs
	kwLambda
	kwNonlocal
	kwNot
	kwOr
	kwPass
	kwRaise
	kwReturn
	kwTry
	kwWhile
	kwWith
	kwYield

	softMatch
	softCase
	softType

	kwLastHard = kwYield
)

// isHard reports whether a keyword code is a hard keyword, which can never be
// an identifier.
func isHard(kw uint8) bool { return kw != kwNone && kw <= kwLastHard }

// isConst reports whether a hard keyword is a constant atom (False, None, True).
func isConst(kw uint8) bool { return kw >= kwFalse && kw <= kwTrue }

// stmtOnly marks hard keywords that may only open a statement (or, for
// import, follow "from ..."): anywhere else in a statement they are a syntax
// error.
var stmtOnly = [kwLastHard + 1]bool{
	kwAssert: true, kwBreak: true, kwClass: true, kwContinue: true, kwDef: true,
	kwDel: true, kwElif: true, kwExcept: true, kwFinally: true, kwGlobal: true,
	kwImport: true, kwNonlocal: true, kwPass: true, kwRaise: true, kwReturn: true,
	kwTry: true, kwWhile: true, kwWith: true,
}

// keyword returns the keyword code of an ASCII identifier, kwNone if it is
// none. It switches on length and first byte so that most identifiers are
// rejected after one or two comparisons.
func keyword(b []byte) uint8 {
	switch len(b) {
	case 2:
		switch string(b) {
		case "as":
			return kwAs
		case "if":
			return kwIf
		case "in":
			return kwIn
		case "is":
			return kwIs
		case "or":
			return kwOr
		}
	case 3:
		switch string(b) {
		case "and":
			return kwAnd
		case "def":
			return kwDef
		case "del":
			return kwDel
		case "for":
			return kwFor
		case "not":
			return kwNot
		case "try":
			return kwTry
		}
	case 4:
		switch string(b) {
		case "None":
			return kwNoneLit
		case "True":
			return kwTrue
		case "elif":
			return kwElif
		case "else":
			return kwElse
		case "from":
			return kwFrom
		case "pass":
			return kwPass
		case "with":
			return kwWith
		case "case":
			return softCase
		case "type":
			return softType
		}
	case 5:
		switch string(b) {
		case "False":
			return kwFalse
		case "async":
			return kwAsync
		case "await":
			return kwAwait
		case "break":
			return kwBreak
		case "class":
			return kwClass
		case "raise":
			return kwRaise
		case "while":
			return kwWhile
		case "yield":
			return kwYield
		case "match":
			return softMatch
		}
	case 6:
		switch string(b) {
		case "assert":
			return kwAssert
		case "except":
			return kwExcept
		case "global":
			return kwGlobal
		case "import":
			return kwImport
		case "lambda":
			return kwLambda
		case "return":
			return kwReturn
		}
	case 7:
		if string(b) == "finally" {
			return kwFinally
		}
	case 8:
		switch string(b) {
		case "continue":
			return kwContinue
		case "nonlocal":
			return kwNonlocal
		}
	}
	return kwNone
}

// Character classes for the lexer's dispatch.
const (
	ccOther   uint8 = iota
	ccSpace         // ' ' '\t' '\f'
	ccNewline       // '\n' '\r'
	ccIdent         // ASCII letter or '_'
	ccDigit
	ccQuote
	ccHash
	ccBackslash
	ccDot
	ccOp     // an operator or bracket character
	ccBadOp  // $ ? `
	ccHigh   // a byte >= 0x80: part of an identifier or an error
	ccIllegl // an ASCII control character
)

var charClass [256]uint8

// identChar marks ASCII identifier characters (letters, digits, '_') and
// every byte >= 0x80, exactly CPython's is_potential_identifier_char.
var identChar [256]bool

func init() {
	for c := 0; c < 256; c++ {
		b := byte(c)
		switch {
		case b == ' ' || b == '\t' || b == '\f':
			charClass[c] = ccSpace
		case b == '\n' || b == '\r':
			charClass[c] = ccNewline
		case b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_':
			charClass[c] = ccIdent
		case b >= '0' && b <= '9':
			charClass[c] = ccDigit
		case b == '"' || b == '\'':
			charClass[c] = ccQuote
		case b == '#':
			charClass[c] = ccHash
		case b == '\\':
			charClass[c] = ccBackslash
		case b == '.':
			charClass[c] = ccDot
		case b == '$' || b == '?' || b == '`':
			charClass[c] = ccBadOp
		case b >= 0x80:
			charClass[c] = ccHigh
		case b < 0x20 || b == 0x7f:
			charClass[c] = ccIllegl
		default:
			charClass[c] = ccOp
		}
		identChar[c] = charClass[c] == ccIdent || charClass[c] == ccDigit || b >= 0x80
	}
}

func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isHexDigit(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' }
