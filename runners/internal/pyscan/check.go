package pyscan

import "fmt"

// check rejects token sequences in one statement or header [from, to) that
// no Python 3 grammar accepts (see badTokens).
func (p *parser) check(from, to int, softHead bool) {
	if k, msg := badTokens(p.src, p.toks[from:to], softHead); k >= 0 {
		p.fail(p.toks[from+k].line, "%s", msg)
	}
}

// badTokens looks, without parsing expressions, for what no Python 3
// grammar accepts in the tokens of one statement (or of an f-string
// replacement field) and returns the index of the offending token and the
// message, or -1:
//
//   - two atoms in a row (name, number, string, or a closing bracket followed
//     by a name, number, string or '{'), as in Python 2's print "x"; adjacent
//     strings are fine (concatenation) unless bytes meet text;
//   - a keyword that only opens a statement (class, def, return, import...)
//     anywhere else in it, or any hard keyword after '.';
//   - characters no rule accepts ($ ? ` a lone ! and <>).
//
// softHead exempts the pair made by a soft keyword opening the statement
// (match x:, case x:, type X = ...).
func badTokens(src []byte, toks []token, softHead bool) (int, string) {
	prevAtom, prevStr, prevBytes := false, false, false
	for k := range toks {
		t := &toks[k]
		switch t.kind {
		case tkName:
			if isHard(t.sub) {
				if k > 0 && toks[k-1].kind == tkOp && toks[k-1].sub == opDot && t.sub != kwImport {
					return k, "invalid syntax"
				}
				if !isConst(t.sub) {
					if k > 0 && stmtOnly[t.sub] && !keywordAllowed(toks, k) {
						return k, "invalid syntax"
					}
					prevAtom, prevStr = false, false
					continue
				}
			}
		case tkString:
			isBytes := t.flags&flagBytes != 0
			if prevStr {
				if isBytes != prevBytes {
					return k, "cannot mix bytes and nonbytes literals"
				}
				continue
			}
			prevBytes = isBytes
		case tkNumber:
		case tkOp:
			switch t.sub {
			case opInvalid:
				return k, "invalid syntax"
			case opLBrace:
				if prevAtom && !(softHead && k == 1) {
					return k, "invalid syntax"
				}
			}
			prevAtom = t.sub == opRPar || t.sub == opRSqb || t.sub == opRBrace
			prevStr = false
			continue
		default:
			prevAtom, prevStr = false, false
			continue
		}
		if prevAtom && !(softHead && k == 1) {
			return adjacent(src, toks, k)
		}
		prevAtom = true
		prevStr = t.kind == tkString
	}
	return -1, ""
}

// keywordAllowed reports whether the statement-only keyword at k may stand
// there: import in "from ... import", def and with right after async.
func keywordAllowed(toks []token, k int) bool {
	first := toks[0]
	switch toks[k].sub {
	case kwImport:
		return first.kind == tkName && first.sub == kwFrom
	case kwDef, kwWith:
		return k == 1 && first.kind == tkName && first.sub == kwAsync
	}
	return false
}

// adjacent reports two atoms in a row at k, with CPython's hint for Python
// 2's print and exec statements.
func adjacent(src []byte, toks []token, k int) (int, string) {
	if k == 1 && toks[0].kind == tkName && toks[0].sub == kwNone {
		switch name := string(src[toks[0].start:toks[0].end]); name {
		case "print", "exec":
			return 0, fmt.Sprintf("Missing parentheses in call to '%s'. Did you mean %s(...)?", name, name)
		}
	}
	return k, "invalid syntax"
}
