package shellwrites

import (
	"errors"
	"io"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// state is where relative paths are read from: dir, relative to the start
// directory ("" is the start itself) or absolute; known is false after a cd
// to a directory known only at run time.
type state struct {
	dir   string
	known bool
}

// input is what a command reads on its standard input, when that is not the
// caller's: an interpreter reading its program there runs what it says.
type input struct {
	kind inKind
	word *syntax.Word // the here-document's body, the here-string or the file
}

type inKind int

const (
	inHereDoc    inKind = iota // <<EOF
	inHereString               // <<< word
	inFile                     // < file, <&N
	inPipe                     // the right side of a pipe
	inScript                   // the rest of a script a shell reads from its input
)

// walker walks one parsed command (src is its text, for quoting parts of it
// in an Unknown); in is the standard input of the statement being walked.
type walker struct {
	job   *job
	src   string
	depth int
	in    *input
	// redirs and hdocs are the redirections and here-document texts of the
	// statements being walked, which every command inside them receives.
	redirs []Redirect
	hdocs  []string
	// xargsIn: the next command recorded runs under xargs, which appends
	// words read from its input.
	xargsIn bool
}

// parse parses src and walks it from st; nested (sh -c) strings come here
// too, one level deeper, reading in.
func (w *walker) parse(src string, st *state, in ...*input) {
	if w.depth > maxDepth {
		w.unknown(src, reasonTooDeep)
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(&clockReader{r: strings.NewReader(src), job: w.job}, "")
	if w.job.opts.now().After(w.job.until) {
		panic(bound(reasonTime))
	}
	if err != nil {
		w.unknown(src, reasonParse+": "+err.Error())
		return
	}
	inner := &walker{job: w.job, src: src, depth: w.depth + 1}
	if len(in) > 0 {
		inner.in = in[0]
	}
	inner.stmts(f.Stmts, st)
}

// clockReader stops the parser at the deadline: the parser reads its input
// a little at a time, and a long input of small tokens is slow to parse.
type clockReader struct {
	r   io.Reader
	job *job
}

func (c *clockReader) Read(b []byte) (int, error) {
	if c.job.opts.now().After(c.job.until) {
		return 0, errPastDeadline
	}
	return c.r.Read(b)
}

var errPastDeadline = errors.New(reasonTime)

func (w *walker) unknown(text, reason string) {
	w.job.res.Unknown = append(w.job.res.Unknown, Unknown{Text: clip(text), Reason: reason})
}

// hidden is an Unknown whose commands are not known either (Unknown.Runs).
func (w *walker) hidden(text, reason string) {
	w.job.res.Unknown = append(w.job.res.Unknown, Unknown{Text: clip(text), Reason: reason, Runs: true})
}

// write records a target named by a (relative to st), or an Unknown when it
// cannot be known. /dev/* (null, stdout, tty, fd/N…) is never a file write.
func (w *walker) write(a arg, st *state, into string) {
	if !a.ok {
		w.unknown(a.raw, reasonDynamic)
		return
	}
	p := a.lit
	if p == "" || p == "-" || strings.HasPrefix(path.Clean(p), "/dev/") {
		return
	}
	if strings.HasPrefix(p, "~") && w.job.homeSet {
		w.unknown(a.raw, reasonDynamic) // ~ is $HOME, which the command sets
		return
	}
	if !path.IsAbs(p) && !strings.HasPrefix(p, "~") {
		if !st.known {
			w.unknown(a.raw, reasonDir)
			return
		}
		if st.dir != "" {
			p = path.Join(st.dir, p)
		}
	}
	w.job.res.Writes = append(w.job.res.Writes, Write{Path: p, Into: into})
}

func (w *walker) stmts(list []*syntax.Stmt, st *state) {
	for _, s := range list {
		w.stmt(s, st)
	}
}

func (w *walker) stmt(s *syntax.Stmt, st *state) {
	if s == nil {
		return
	}
	w.job.step()
	defer func(in *input) { w.in = in }(w.in)
	defer func(r []Redirect, h []string) { w.redirs, w.hdocs = r, h }(w.redirs, w.hdocs)
	for _, r := range s.Redirs {
		w.redirect(r, st)
		w.note(r)
		if r.N != nil && r.N.Value != "0" {
			continue
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			w.in = &input{kind: inHereDoc, word: r.Hdoc}
		case syntax.WordHdoc:
			w.in = &input{kind: inHereString, word: r.Word}
		case syntax.RdrIn, syntax.DplIn, syntax.RdrInOut:
			w.in = &input{kind: inFile, word: r.Word}
		}
	}
	if s.Background {
		cp := *st // a background job runs in its own subshell
		st = &cp
	}
	w.command(s.Cmd, st)
}

// redirect records a redirection that opens a file for writing. >&N, >&-
// duplicate descriptors; >&word with another word is bash's &>word.
func (w *walker) redirect(r *syntax.Redirect, st *state) {
	w.substs(r.Word, st)
	w.substs(r.Hdoc, st)
	if r.Word != nil && len(r.Word.Parts) == 1 {
		if _, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok {
			return // > >(tee log): the substitution's own writes are counted
		}
	}
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll,
		syntax.RdrAllClob, syntax.AppAllClob, syntax.RdrInOut:
		w.write(w.word(r.Word)[0], st, "")
	case syntax.DplOut:
		a := w.word(r.Word)[0]
		if a.ok && (a.lit == "-" || strings.TrimRight(a.lit, "0123456789-") == "") {
			return
		}
		w.write(a, st, "")
	}
}

// note adds r to the redirections the statement's commands receive.
func (w *walker) note(r *syntax.Redirect) {
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		word := r.Hdoc
		if r.Op == syntax.WordHdoc {
			word = r.Word
		}
		text, ok := "", false
		if word != nil {
			if text, ok = literal(word.Parts); !ok {
				text = w.partsText(word.Parts)
			}
		}
		w.hdocs = append(w.hdocs[:len(w.hdocs):len(w.hdocs)], text)
		return
	}
	op := r.Op.String()
	if r.N != nil {
		op = r.N.Value + op
	}
	target := ""
	if r.Word != nil {
		target, _ = literal(r.Word.Parts)
	}
	w.redirs = append(w.redirs[:len(w.redirs):len(w.redirs)], Redirect{Op: op, Target: target})
}

// partsText is parts as written: a here-document's body that is not literal.
func (w *walker) partsText(parts []syntax.WordPart) string {
	var b strings.Builder
	for _, p := range parts {
		if l, ok := p.(*syntax.Lit); ok {
			b.WriteString(l.Value)
		} else {
			b.WriteString(w.text(p))
		}
	}
	return b.String()
}

// command walks one command.
func (w *walker) command(c syntax.Command, st *state) {
	switch c := c.(type) {
	case *syntax.CallExpr:
		for _, a := range c.Assigns {
			w.assign(a, st)
		}
		var args []arg
		for _, word := range c.Args {
			w.substs(word, st)
			args = append(args, w.word(word)...)
		}
		w.run(args, st)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			left, right := *st, *st // each side of a pipe is a subshell
			w.stmt(c.X, &left)
			in := w.in
			w.in = &input{kind: inPipe}
			w.stmt(c.Y, &right)
			w.in = in
			return
		}
		if c.Op == syntax.AndStmt {
			w.andList(c, st)
			return
		}
		w.stmt(c.X, st)
		w.maybe(st, func() { w.stmt(c.Y, st) }) // ||: Y may not run
	case *syntax.Subshell:
		cp := *st
		w.stmts(c.Stmts, &cp)
	case *syntax.Block:
		w.stmts(c.Stmts, st)
	case *syntax.IfClause:
		w.maybe(st, func() {
			for ; c != nil; c = c.Else {
				w.stmts(c.Cond, st)
				w.stmts(c.Then, st)
			}
		})
	case *syntax.WhileClause:
		w.loop(st, func() {
			w.stmts(c.Cond, st)
			w.stmts(c.Do, st)
		})
	case *syntax.ForClause:
		w.substs(c.Loop, st)
		w.loop(st, func() { w.stmts(c.Do, st) })
	case *syntax.CaseClause:
		w.substs(c.Word, st)
		w.maybe(st, func() {
			for _, it := range c.Items {
				w.stmts(it.Stmts, st)
			}
		})
	case *syntax.FuncDecl:
		cp := *st // a function may run anywhere: its writes count as if it ran here
		w.stmt(c.Body, &cp)
		if w.job.funcs == nil {
			w.job.funcs, w.job.calling = map[string]*syntax.Stmt{}, map[string]bool{}
		}
		w.job.funcs[c.Name.Value] = c.Body // and where it is called, as it runs there
	case *syntax.DeclClause:
		for _, a := range c.Args {
			w.assign(a, st)
		}
	case *syntax.TimeClause:
		w.stmt(c.Stmt, st)
	case *syntax.CoprocClause:
		cp := *st
		w.stmt(c.Stmt, &cp)
	case nil:
	default: // [[ ]], (( )), let: only their substitutions run commands
		w.substs(c, st)
	}
}

// maybe walks, from st, commands that may not run (a branch, the right
// side of && or ||): when they move the directory, where the commands
// after them run is known only at run time.
func (w *walker) maybe(st *state, walk func()) {
	before := *st
	walk()
	if *st != before {
		*st = state{}
	}
}

// andList walks X && Y && …: each part runs only when every part before it
// succeeded, so it starts where they left the directory; what follows the
// list runs either way, so a move past the first part leaves it unknown.
func (w *walker) andList(c *syntax.BinaryCmd, st *state) {
	parts := []*syntax.Stmt{c.Y}
	for x := c.X; ; {
		inner, ok := x.Cmd.(*syntax.BinaryCmd)
		if !ok || inner.Op != syntax.AndStmt || len(x.Redirs) > 0 || x.Negated || x.Background {
			parts = append([]*syntax.Stmt{x}, parts...)
			break
		}
		parts, x = append([]*syntax.Stmt{inner.Y}, parts...), inner.X
	}
	w.stmt(parts[0], st)
	w.maybe(st, func() {
		for _, p := range parts[1:] {
			w.stmt(p, st)
		}
	})
}

// loop walks a loop's body from st, which may run any number of times:
// when it moves the directory, it is walked once more from a directory
// known only at run time (a second pass runs its commands there), and that
// is where the commands after it run.
func (w *walker) loop(st *state, walk func()) {
	before := *st
	walk()
	if *st != before {
		*st = state{}
		walk()
		*st = state{}
	}
}

func (w *walker) assign(a *syntax.Assign, st *state) {
	if a.Name != nil {
		w.job.setVar(a.Name.Value)
	}
	w.substs(a.Value, st)
	w.substs(a.Array, st)
	w.substs(a.Index, st)
}

// substs walks the command and process substitutions inside n: they run, so
// what they write counts. Each runs in a subshell.
func (w *walker) substs(n syntax.Node, st *state) {
	if n == nil || isNilNode(n) {
		return
	}
	// A substitution's output is not the statement's: its redirections
	// are not the substitution's commands'.
	defer func(r []Redirect, h []string) { w.redirs, w.hdocs = r, h }(w.redirs, w.hdocs)
	w.redirs, w.hdocs = nil, nil
	syntax.Walk(n, func(n syntax.Node) bool {
		w.job.step()
		switch n := n.(type) {
		case *syntax.CmdSubst:
			cp := *st
			w.stmts(n.Stmts, &cp)
			return false
		case *syntax.ProcSubst:
			cp := *st
			w.stmts(n.Stmts, &cp)
			return false
		}
		return true
	})
}

// isNilNode reports a typed nil inside the interface (a *Word that is nil).
func isNilNode(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Word:
		return n == nil
	case *syntax.ArrayExpr:
		return n == nil
	}
	return false
}
