// Package scripts reads the texts a command is given that say which files
// it writes: a sed script (its w and W commands, s///w flags, and whether it
// runs commands) and a diff (the files a unified, context or git diff
// names). Nothing is run or opened: the caller reads the text.
package scripts

import "strings"

// SedScript reads a sed script as GNU sed does and returns the files its w
// and W commands and s///w flags write, and whether it runs a command (e,
// s///e) or cannot be read (then it is treated as one that does).
func SedScript(s string) (files []string, runs bool) {
	sc := &sedScanner{s: s}
	for sc.next() {
		if !sc.addresses() || !sc.command() {
			return sc.files, true
		}
	}
	return sc.files, false
}

// sedScanner walks a sed script, collecting the files it writes.
type sedScanner struct {
	s     string
	i     int
	files []string
}

// next skips the blanks and separators before a command, and reports
// whether one follows.
func (sc *sedScanner) next() bool {
	for sc.i < len(sc.s) && strings.IndexByte(" \t\n;", sc.s[sc.i]) >= 0 {
		sc.i++
	}
	return sc.i < len(sc.s)
}

// toEOL reads to the end of the line.
func (sc *sedScanner) toEOL() string {
	j := strings.IndexByte(sc.s[sc.i:], '\n')
	if j < 0 {
		j = len(sc.s) - sc.i
	}
	v := sc.s[sc.i : sc.i+j]
	sc.i += j
	return v
}

func (sc *sedScanner) skipSpace() {
	for sc.i < len(sc.s) && (sc.s[sc.i] == ' ' || sc.s[sc.i] == '\t') {
		sc.i++
	}
}

// delimited reads up to the next unescaped d; false at the end.
func (sc *sedScanner) delimited(d byte) bool {
	for ; sc.i < len(sc.s); sc.i++ {
		switch sc.s[sc.i] {
		case '\\':
			sc.i++
		case d:
			sc.i++
			return true
		case '\n':
			if d != '\n' {
				return false
			}
		}
	}
	return false
}

// address reads one address (/re/, \cREc, a line number, $, first~step).
func (sc *sedScanner) address() bool {
	s := sc.s
	switch {
	case sc.i < len(s) && s[sc.i] == '/':
		sc.i++
		return sc.delimited('/')
	case sc.i < len(s) && s[sc.i] == '\\':
		if sc.i+1 >= len(s) {
			return false
		}
		d := s[sc.i+1]
		sc.i += 2
		return sc.delimited(d)
	}
	for sc.i < len(s) && strings.IndexByte("0123456789$~+", s[sc.i]) >= 0 {
		sc.i++
	}
	for sc.i < len(s) && (s[sc.i] == 'I' || s[sc.i] == 'M') {
		sc.i++
	}
	return true
}

// addresses reads a command's address or address range and its negation,
// and reports whether a command follows.
func (sc *sedScanner) addresses() bool {
	if !sc.address() {
		return false
	}
	sc.skipSpace()
	if sc.i < len(sc.s) && sc.s[sc.i] == ',' {
		sc.i++
		sc.skipSpace()
		if !sc.address() {
			return false
		}
	}
	sc.skipSpace()
	for sc.i < len(sc.s) && (sc.s[sc.i] == '!' || sc.s[sc.i] == ' ') {
		sc.i++
	}
	return sc.i < len(sc.s)
}

// command reads one command; false when it runs a command or cannot be
// read.
func (sc *sedScanner) command() bool {
	c := sc.s[sc.i]
	sc.i++
	switch c {
	case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
	case '#', 'a', 'i', 'c', 'r', 'R':
		for { // text to the end of the line; a\ continues it
			line := sc.toEOL()
			if !strings.HasSuffix(line, "\\") || sc.i >= len(sc.s) || c == '#' || c == 'r' || c == 'R' {
				break
			}
			sc.i++
		}
	case ':', 'b', 't', 'T', 'v', 'l', 'L', 'q', 'Q':
		for sc.i < len(sc.s) && sc.s[sc.i] != ';' && sc.s[sc.i] != '\n' && sc.s[sc.i] != '}' {
			sc.i++
		}
	case 'w', 'W':
		return sc.writeFile()
	case 'e':
		return false
	case 's', 'y':
		return sc.substitute(c)
	default:
		return false
	}
	return true
}

// writeFile reads the file name of w, W or s///w.
func (sc *sedScanner) writeFile() bool {
	sc.skipSpace()
	f := sc.toEOL()
	if f == "" {
		return false
	}
	sc.files = append(sc.files, f)
	return true
}

// substitute reads s/RE/TEXT/FLAGS or y/A/B/; false on the e flag.
func (sc *sedScanner) substitute(c byte) bool {
	s := sc.s
	if sc.i >= len(s) || s[sc.i] == '\n' || s[sc.i] == '\\' {
		return false
	}
	d := s[sc.i]
	sc.i++
	if !sc.delimited(d) || !sc.delimited(d) {
		return false
	}
	if c == 'y' {
		return true
	}
	for sc.i < len(s) && strings.IndexByte("gpiImMe0123456789w", s[sc.i]) >= 0 {
		f := s[sc.i]
		sc.i++
		if f == 'e' {
			return false
		}
		if f == 'w' && !sc.writeFile() {
			return false
		}
	}
	return true
}
