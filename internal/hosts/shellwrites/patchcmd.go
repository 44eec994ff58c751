package shellwrites

import (
	"path"
	"strconv"
	"strings"

	"github.com/tausik/tausik/internal/hosts/shellwrites/getopt"
	"github.com/tausik/tausik/internal/hosts/shellwrites/scripts"
)

// patch writes the files its patch names (stripped of -p N leading
// directories, or of all of them without -p), their backups with -b, and
// the file given as its first operand or with -o. The patch is read from
// -i FILE, a second operand, or its standard input when that is a literal
// here-document or a readable file; a patch it cannot read is Unknown.
func (w *walker) patch(args []arg, st *state) {
	opts, ops, bad := getopt.ParseStrict(getopt.Patch, args[1:])
	switch {
	case bad != "":
		w.unknown(joinRaw(args), reasonOption+bad)
		return
	case getopt.Has(opts, "dry-run", "help", "version"):
		return
	}
	shellDir := st // the shell opens a redirection before patch moves to -d DIR
	if d, ok := getopt.Value(opts, "d", "directory"); ok {
		st = cd(st, d)
	}
	w.writeAll(getopt.Values(opts, "r", "reject-file"), st)
	if o, ok := getopt.Value(opts, "o", "output"); ok {
		w.write(o, st, "")
		return
	}
	backup := func(p arg) {
		if !getopt.Has(opts, "b", "backup", "B", "prefix", "z", "suffix", "Y", "basename-prefix", "V", "version-control") {
			return
		}
		b := p.lit + ".orig"
		if s, ok := getopt.Value(opts, "z", "suffix"); ok {
			b = p.lit + s.lit
		}
		if pre, ok := getopt.Value(opts, "B", "prefix"); ok {
			b = pre.lit + p.lit
		}
		if pre, ok := getopt.Value(opts, "Y", "basename-prefix"); ok {
			b = path.Join(path.Dir(p.lit), pre.lit+path.Base(p.lit))
		}
		w.write(arg{lit: b, ok: p.ok, raw: p.raw}, st, "")
	}
	if len(ops) > 0 {
		w.write(ops[0], st, "")
		backup(ops[0])
		return
	}
	var text string
	var ok bool
	if f, given := getopt.Value(opts, "i", "input"); given {
		text, ok = w.readFile(f, st)
	} else {
		text, ok = w.stdinText(shellDir)
	}
	strip := -1
	if p, given := getopt.Value(opts, "p", "strip"); given {
		n, err := strconv.Atoi(p.lit)
		if !p.ok || err != nil {
			w.unknown(joinRaw(args), reasonDynamic)
			return
		}
		strip = n
	}
	files := scripts.DiffFiles(text)
	if !ok || len(files) == 0 {
		// GNU patch refuses names that climb out of its directory: an
		// unread patch may write anywhere below it.
		w.unknown(joinRaw(args), reasonUnread)
		w.write(arg{lit: ".", ok: true, raw: joinRaw(args)}, st, "")
		return
	}
	for _, f := range files {
		p := arg{lit: stripPath(f.Name, strip), ok: true, raw: f.Name}
		w.write(p, st, "")
		backup(p)
	}
}

// stdinText is the text on a command's standard input when it is known
// before it runs: a literal here-document or here-string, or a readable file.
func (w *walker) stdinText(st *state) (string, bool) {
	if w.in == nil || w.in.word == nil {
		return "", false
	}
	switch w.in.kind {
	case inHereDoc, inHereString:
		body, ok := literal(w.in.word.Parts)
		if w.in.kind == inHereString {
			body += "\n"
		}
		return body, ok
	case inFile:
		return w.readFile(w.word(w.in.word)[0], st)
	}
	return "", false
}

// stripPath removes n leading directories from p as patch -p N does; n < 0
// keeps only the base name.
func stripPath(p string, n int) string {
	if n < 0 {
		return path.Base(p)
	}
	for ; n > 0; n-- {
		i := strings.IndexByte(p, '/')
		if i < 0 {
			return p
		}
		p = strings.TrimLeft(p[i+1:], "/")
	}
	return p
}

// gitApply writes the files its patches name (stripped of -p N, default 1,
// under --directory); --cached, --check and the summaries without --apply
// change no work-tree file. An unreadable patch is Unknown and a write of
// the whole work tree.
func (w *walker) gitApply(text string, args []arg, st *state) {
	o, ops := getopt.Parse(getopt.GitApply, args)
	if getopt.Has(o, "cached") || getopt.Has(o, "check", "stat", "numstat", "summary") && !getopt.Has(o, "apply") {
		return
	}
	strip := 1
	if p, given := getopt.Value(o, "p"); given {
		n, err := strconv.Atoi(p.lit)
		if !p.ok || err != nil {
			w.unknown(text, reasonDynamic)
			return
		}
		strip = n
	}
	dir, _ := getopt.Value(o, "directory")
	var texts []string
	for _, f := range ops {
		t, ok := w.readFile(f, st)
		if !ok {
			w.treeRewrite(text, reasonUnread, st)
			return
		}
		texts = append(texts, t)
	}
	if len(ops) == 0 {
		t, ok := w.stdinText(st)
		if !ok {
			w.treeRewrite(text, reasonUnread, st)
			return
		}
		texts = append(texts, t)
	}
	n := 0
	for _, t := range texts {
		for _, f := range scripts.DiffFiles(t) {
			p := f.Name
			if !f.Bare {
				p = stripPath(p, strip)
			}
			w.write(arg{lit: path.Join(dir.lit, p), ok: true, raw: f.Name}, st, "")
			n++
		}
	}
	if n == 0 {
		w.treeRewrite(text, reasonUnread, st)
	}
}
