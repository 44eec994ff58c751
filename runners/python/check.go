package python

// check rejects token sequences in one statement or header [from, to) that
// no Python 3 grammar accepts, without parsing expressions:
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
func (p *parser) check(from, to int, softHead bool) {
	prevAtom, prevStr, prevBytes := false, false, false
	for k := from; k < to; k++ {
		t := &p.toks[k]
		switch t.kind {
		case tkName:
			if isHard(t.sub) {
				if k > from && p.isOp(k-1, opDot) && t.sub != kwImport {
					p.fail(t.line, "invalid syntax")
					return
				}
				if !isConst(t.sub) {
					if k > from && stmtOnly[t.sub] && !p.keywordAllowed(from, k) {
						p.fail(t.line, "invalid syntax")
						return
					}
					prevAtom, prevStr = false, false
					continue
				}
			}
		case tkString:
			isBytes := t.flags&flagBytes != 0
			if prevStr {
				if isBytes != prevBytes {
					p.fail(t.line, "cannot mix bytes and nonbytes literals")
					return
				}
				continue
			}
			prevBytes = isBytes
		case tkNumber:
		case tkOp:
			switch t.sub {
			case opInvalid:
				p.fail(t.line, "invalid syntax")
				return
			case opLBrace:
				if prevAtom && !(softHead && k == from+1) {
					p.fail(t.line, "invalid syntax")
					return
				}
			}
			prevAtom = t.sub == opRPar || t.sub == opRSqb || t.sub == opRBrace
			prevStr = false
			continue
		default:
			prevAtom, prevStr = false, false
			continue
		}
		if prevAtom && !(softHead && k == from+1) {
			p.adjacent(from, k)
			return
		}
		prevAtom = true
		prevStr = t.kind == tkString
	}
}

// keywordAllowed reports whether the statement-only keyword at k may stand
// there: import in "from ... import", def and with right after async.
func (p *parser) keywordAllowed(from, k int) bool {
	first := p.toks[from]
	switch p.toks[k].sub {
	case kwImport:
		return first.kind == tkName && first.sub == kwFrom
	case kwDef, kwWith:
		return k == from+1 && first.kind == tkName && first.sub == kwAsync
	}
	return false
}

// adjacent reports two atoms in a row at k, with CPython's hint for Python
// 2's print and exec statements.
func (p *parser) adjacent(from, k int) {
	if k == from+1 {
		if first := p.toks[from]; first.kind == tkName && first.sub == kwNone {
			switch string(p.src[first.start:first.end]) {
			case "print", "exec":
				name := string(p.src[first.start:first.end])
				p.fail(first.line, "Missing parentheses in call to '%s'. Did you mean %s(...)?", name, name)
				return
			}
		}
	}
	p.fail(p.toks[k].line, "invalid syntax")
}
