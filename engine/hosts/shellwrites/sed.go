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
	i := 0
	toEOL := func() string {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			j = len(s) - i
		}
		v := s[i : i+j]
		i += j
		return v
	}
	skipSpace := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	// delimited reads up to the next unescaped d; ok is false at the end.
	delimited := func(d byte) bool {
		for ; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case d:
				i++
				return true
			case '\n':
				if d != '\n' {
					return false
				}
			}
		}
		return false
	}
	address := func() bool {
		switch {
		case i < len(s) && s[i] == '/':
			i++
			return delimited('/')
		case i < len(s) && s[i] == '\\':
			if i+1 >= len(s) {
				return false
			}
			d := s[i+1]
			i += 2
			return delimited(d)
		}
		for i < len(s) && strings.IndexByte("0123456789$~+", s[i]) >= 0 {
			i++
		}
		for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
			i++
		}
		return true
	}
	for i < len(s) {
		for i < len(s) && strings.IndexByte(" \t\n;", s[i]) >= 0 {
			i++
		}
		if i >= len(s) {
			break
		}
		if !address() {
			return files, true
		}
		skipSpace()
		if i < len(s) && s[i] == ',' {
			i++
			skipSpace()
			if !address() {
				return files, true
			}
		}
		skipSpace()
		for i < len(s) && (s[i] == '!' || s[i] == ' ') {
			i++
		}
		if i >= len(s) {
			return files, true
		}
		c := s[i]
		i++
		switch c {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case '#', 'a', 'i', 'c', 'r', 'R':
			for { // text to the end of the line; a\ continues it
				line := toEOL()
				if !strings.HasSuffix(line, "\\") || i >= len(s) || c == '#' || c == 'r' || c == 'R' {
					break
				}
				i++
			}
		case ':', 'b', 't', 'T', 'v', 'l', 'L', 'q', 'Q':
			for i < len(s) && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				i++
			}
		case 'w', 'W':
			skipSpace()
			if f := toEOL(); f != "" {
				files = append(files, f)
			} else {
				return files, true
			}
		case 'e':
			return files, true
		case 's', 'y':
			if i >= len(s) || s[i] == '\n' || s[i] == '\\' {
				return files, true
			}
			d := s[i]
			i++
			if !delimited(d) || !delimited(d) {
				return files, true
			}
			if c == 'y' {
				continue
			}
			for i < len(s) && strings.IndexByte("gpiImMe0123456789w", s[i]) >= 0 {
				f := s[i]
				i++
				if f == 'e' {
					return files, true
				}
				if f == 'w' {
					skipSpace()
					if name := toEOL(); name != "" {
						files = append(files, name)
					} else {
						return files, true
					}
				}
			}
		default:
			return files, true
		}
	}
	return files, false
}
