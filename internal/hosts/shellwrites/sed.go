package shellwrites

import (
	"path"
	"strings"
)

var sedSpec = spec{strict: true, short: "nrsuzEe:f:l:i::", long: []string{"expression", "file", "line-length"}, optional: []string{"in-place"},
	flags: append([]string{"quiet", "silent", "posix", "regexp-extended", "separate", "sandbox", "debug", "unbuffered", "null-data", "zero-terminated", "follow-symlinks", "binary"}, std...)}

// sed writes its file operands with -i (GNU -i[SUFFIX], --in-place[=SUFFIX]
// and its abbreviations, BSD -i with an empty argument), and the files its script's w and W
// commands and s///w flags name, with or without -i; a script that runs
// commands (e, s///e) or comes from a file that cannot be read is Unknown.
func (w *walker) sed(args []arg, st *state) {
	var kept []arg
	bsd := false
	for i := 1; i < len(args); i++ {
		if args[i].ok && args[i].lit == "-i" && i+1 < len(args) && args[i+1].ok && args[i+1].lit == "" {
			bsd = true
			i++
			continue
		}
		kept = append(kept, args[i])
	}
	opts, ops, bad := sedSpec.parseStrict(kept)
	if bad != "" {
		w.unknown(joinRaw(args), reasonOption+bad)
		return
	}
	if has(opts, "help", "version") {
		return
	}
	var scripts []string
	for _, o := range opts {
		switch o.name {
		case "e", "expression":
			if !o.value.ok {
				w.unknown(joinRaw(args), reasonDynamic)
				return
			}
			scripts = append(scripts, o.value.lit)
		case "f", "file":
			text, ok := w.readFile(o.value, st)
			if !ok {
				w.unknown(joinRaw(args), reasonUnread)
				return
			}
			scripts = append(scripts, text)
		}
	}
	if len(scripts) == 0 && len(ops) > 0 {
		if !ops[0].ok {
			w.unknown(joinRaw(args), reasonDynamic)
			return
		}
		scripts, ops = append(scripts, ops[0].lit), ops[1:]
	}
	files, runs := sedScript(strings.Join(scripts, "\n"))
	if runs && !has(opts, "sandbox") {
		w.unknown(joinRaw(args), "a sed script that runs commands (e, s///e), or one the analysis cannot read, can write any file")
	}
	if !has(opts, "sandbox") {
		for _, f := range files {
			if f != "/dev/stdout" && f != "/dev/stderr" {
				w.write(arg{lit: f, ok: true, raw: f}, st, "")
			}
		}
	}
	suffix, inPlace := value(opts, "i", "in-place")
	if !inPlace && !bsd {
		return
	}
	for _, f := range ops {
		w.write(f, st, "")
		if suffix.lit != "" && f.ok {
			if strings.Contains(suffix.lit, "*") { // -i'bak/*': * is the file's name
				w.write(arg{lit: path.Join(path.Dir(f.lit), strings.ReplaceAll(suffix.lit, "*", path.Base(f.lit))), ok: true, raw: f.raw}, st, "")
			} else {
				w.write(arg{lit: f.lit + suffix.lit, ok: true, raw: f.raw}, st, "")
			}
		}
	}
}

// readFile reads a file the command names, relative to the directory it
// runs in; ok is false when it cannot be read before the command runs.
func (w *walker) readFile(a arg, st *state) (string, bool) {
	o := w.job.opts
	if !a.ok || !st.known || o.ReadFile == nil || a.lit == "" || a.lit == "-" || strings.HasPrefix(a.lit, "/dev/") {
		return "", false
	}
	p := a.lit
	if !path.IsAbs(p) {
		if o.Dir == "" || strings.HasPrefix(p, "~") {
			return "", false
		}
		p = path.Join(o.Dir, st.dir, p)
		if path.IsAbs(st.dir) {
			p = path.Join(st.dir, a.lit)
		}
	}
	b, err := o.ReadFile(p)
	if err != nil || len(b) > maxCommandBytes {
		return "", false
	}
	return string(b), true
}

// sedScript reads a sed script as GNU sed does and returns the files its w
// and W commands and s///w flags write, and whether it runs a command (e,
// s///e) or cannot be read (then it is treated as one that does).
func sedScript(s string) (files []string, runs bool) {
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
