package shellwrites

import (
	"path"
	"strings"

	"github.com/tausik/tausik/internal/hosts/shellwrites/getopt"
	"github.com/tausik/tausik/internal/hosts/shellwrites/scripts"
)

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
	opts, ops, bad := getopt.ParseStrict(getopt.Sed, kept)
	if bad != "" {
		w.unknown(joinRaw(args), reasonOption+bad)
		return
	}
	if getopt.Has(opts, "help", "version") {
		return
	}
	var texts []string
	for _, o := range opts {
		switch o.Name {
		case "e", "expression":
			if !o.Value.ok {
				w.unknown(joinRaw(args), reasonDynamic)
				return
			}
			texts = append(texts, o.Value.lit)
		case "f", "file":
			text, ok := w.readFile(o.Value, st)
			if !ok {
				w.unknown(joinRaw(args), reasonUnread)
				return
			}
			texts = append(texts, text)
		}
	}
	if len(texts) == 0 && len(ops) > 0 {
		if !ops[0].ok {
			w.unknown(joinRaw(args), reasonDynamic)
			return
		}
		texts, ops = append(texts, ops[0].lit), ops[1:]
	}
	files, runs := scripts.SedScript(strings.Join(texts, "\n"))
	if runs && !getopt.Has(opts, "sandbox") {
		w.unknown(joinRaw(args), "a sed script that runs commands (e, s///e), or one the analysis cannot read, can write any file")
	}
	if !getopt.Has(opts, "sandbox") {
		for _, f := range files {
			if f != "/dev/stdout" && f != "/dev/stderr" {
				w.write(arg{lit: f, ok: true, raw: f}, st, "")
			}
		}
	}
	suffix, inPlace := getopt.Value(opts, "i", "in-place")
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
