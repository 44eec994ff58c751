// Package shellwrites finds the paths a shell command or a patch would write,
// without running anything: the command is parsed with a real shell parser
// (mvdan.cc/sh/v3/syntax) and its syntax tree walked, so a write refused
// through an editor tool is not let through through the shell.
//
// What it sees: redirections (> >> &> &>> >| <>, here-documents included,
// since their target is the redirection's), the destinations of tee, cp, mv,
// install and ln, the operands of rm, rmdir, unlink, shred, touch, mkdir and
// truncate, dd's of=, sed -i and perl -i, git checkout -- / restore / rm / mv /
// clean, through && || ; | & subshells, blocks, loops, functions, command
// substitutions and the wrappers sudo, doas, env, xargs, nohup, time,
// command, exec, nice, timeout, stdbuf and ionice; cd and pushd move the
// directory later relative paths are read from; sh -c / bash -c strings are
// parsed in turn when they are literal.
//
// What it cannot know is reported as Unknown, never dropped: a target built
// from a variable or a command substitution, eval, a shell -c string built at
// run time, xargs' appended arguments, interpreters given inline code
// (python -c, node -e, perl -e, ruby -e, awk programs that redirect…), and a
// command that does not parse. What stays out of reach is a program that
// writes files itself (make, a script, a compiler): its writes are not in the
// command line.
package shellwrites

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Write is one path a command would write, as the command names it: absolute,
// or relative to the directory the command starts in.
type Write struct {
	Path string `json:"path"`
	// Into, when set, is the name the write lands under if Path turns out to
	// be an existing directory (cp a.py dir: dir/a.py).
	Into string `json:"into,omitempty"`
}

// Unknown is a write whose target cannot be known before the command runs.
type Unknown struct {
	Text   string `json:"text"`   // the part of the command, as written
	Reason string `json:"reason"` // why it cannot be known
}

// Command is one simple command as it would run, after the wrappers (sudo, doas, env, nohup, time,
// command, exec, nice, timeout, stdbuf, ionice, xargs) are stripped, and for each literal
// `sh -c`/`bash -c` string, its own commands.
type Command struct {
	Argv    []string `json:"argv"`    // each word after quote removal and brace expansion; a dynamic word is its source text
	Dynamic []bool   `json:"dynamic"` // Dynamic[i]: Argv[i] is known only at run time
	// Wrapped names the wrappers stripped before Argv[0], outermost first
	// (["sudo", "env"]), as written.
	Wrapped []string `json:"wrapped,omitempty"`
}

// Result is what a command would write, and the simple commands it would run.
type Result struct {
	Writes   []Write   `json:"writes"`
	Unknown  []Unknown `json:"unknown"`
	Commands []Command `json:"commands"`
}

// Reasons for Unknown, shared by the walker and the command table.
const (
	reasonDynamic   = "the target is built from a variable or a command substitution, known only at run time"
	reasonDir       = "it is relative to a directory known only at run time"
	reasonEval      = "eval runs a string built at run time"
	reasonXargs     = "xargs appends arguments read from its input"
	reasonShellC    = "the shell is given a command string built at run time"
	reasonInline    = "an interpreter given inline code can open any file"
	reasonParse     = "the command does not parse as a shell command"
	reasonTooDeep   = "shell commands nested too deeply to follow"
	reasonFromFile  = "the paths come from a file read at run time"
	maxDepth        = 8
	maxCommandBytes = 1 << 20
)

// Shell returns the paths command would write, parsed as bash. A command
// that does not parse is one Unknown: it is not let through as harmless.
func Shell(command string) Result {
	var r Result
	w := &walker{res: &r, wraps: new([]string)}
	w.parse(command, &state{known: true})
	return r.clean()
}

// Argv returns the paths an argv (a command run without a shell, such as
// Codex's ["bash", "-lc", "…"]) would write.
func Argv(argv []string) Result {
	var r Result
	w := &walker{res: &r, wraps: new([]string)}
	args := make([]arg, len(argv))
	for i, a := range argv {
		args[i] = arg{lit: a, ok: true, raw: a}
	}
	w.run(args, &state{known: true}, nil)
	return r.clean()
}

// clean drops duplicate writes and unknowns, keeping the first occurrence's
// order, and makes every list non-nil. Commands stay as they ran, in order.
func (r Result) clean() Result {
	out := Result{Writes: []Write{}, Unknown: []Unknown{}, Commands: r.Commands}
	if out.Commands == nil {
		out.Commands = []Command{}
	}
	seenW := map[Write]bool{}
	for _, x := range r.Writes {
		if !seenW[x] {
			seenW[x] = true
			out.Writes = append(out.Writes, x)
		}
	}
	seenU := map[Unknown]bool{}
	for _, x := range r.Unknown {
		if !seenU[x] {
			seenU[x] = true
			out.Unknown = append(out.Unknown, x)
		}
	}
	return out
}

// state is where relative paths are read from: dir, relative to the start
// directory ("" is the start itself) or absolute; known is false after a cd
// to a directory known only at run time.
type state struct {
	dir   string
	known bool
}

// walker walks one parsed command (src is its text, for quoting parts of it
// in an Unknown), appending to res.
type walker struct {
	res   *Result
	src   string
	depth int
	wraps *[]string // the wrappers around the command being judged
}

// parse parses src and walks it from st; nested (sh -c) strings come here
// too, one level deeper.
func (w *walker) parse(src string, st *state) {
	if w.depth > maxDepth {
		w.unknown(src, reasonTooDeep)
		return
	}
	if len(src) > maxCommandBytes {
		w.unknown(src[:80]+"…", reasonParse)
		return
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		w.unknown(src, reasonParse+": "+err.Error())
		return
	}
	inner := &walker{res: w.res, src: src, depth: w.depth + 1, wraps: w.wraps}
	inner.stmts(f.Stmts, st)
}

func (w *walker) unknown(text, reason string) {
	if len(text) > 200 {
		text = text[:200] + "…"
	}
	w.res.Unknown = append(w.res.Unknown, Unknown{Text: text, Reason: reason})
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
	if !path.IsAbs(p) && !strings.HasPrefix(p, "~") {
		if !st.known {
			w.unknown(a.raw, reasonDir)
			return
		}
		if st.dir != "" {
			p = path.Join(st.dir, p)
		}
	}
	w.res.Writes = append(w.res.Writes, Write{Path: p, Into: into})
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
	var hdoc *syntax.Word
	for _, r := range s.Redirs {
		w.redirect(r, st)
		if r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc {
			hdoc = r.Hdoc
		}
	}
	if s.Background {
		cp := *st // a background job runs in its own subshell
		st = &cp
	}
	w.command(s.Cmd, st, hdoc)
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

// command walks one command; hdoc is the here-document fed to it, if any
// (bash <<'EOF' … runs its body).
func (w *walker) command(c syntax.Command, st *state, hdoc *syntax.Word) {
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
		w.run(args, st, hdoc)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			left, right := *st, *st // each side of a pipe is a subshell
			w.stmt(c.X, &left)
			w.stmt(c.Y, &right)
			return
		}
		w.stmt(c.X, st)
		w.stmt(c.Y, st)
	case *syntax.Subshell:
		cp := *st
		w.stmts(c.Stmts, &cp)
	case *syntax.Block:
		w.stmts(c.Stmts, st)
	case *syntax.IfClause:
		for ; c != nil; c = c.Else {
			w.stmts(c.Cond, st)
			w.stmts(c.Then, st)
		}
	case *syntax.WhileClause:
		w.stmts(c.Cond, st)
		w.stmts(c.Do, st)
	case *syntax.ForClause:
		w.substs(c.Loop, st)
		w.stmts(c.Do, st)
	case *syntax.CaseClause:
		w.substs(c.Word, st)
		for _, it := range c.Items {
			w.stmts(it.Stmts, st)
		}
	case *syntax.FuncDecl:
		cp := *st // a function may run anywhere: its writes count as if it ran here
		w.stmt(c.Body, &cp)
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

func (w *walker) assign(a *syntax.Assign, st *state) {
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
	syntax.Walk(n, func(n syntax.Node) bool {
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

// arg is one argument after brace expansion: its literal value when it has
// one (ok), and its text as written.
type arg struct {
	lit string
	ok  bool
	raw string
}

// word turns a word into its arguments: brace expansion as bash does it
// (a{b,c} is two), quotes removed. A word with a parameter, command or
// arithmetic expansion has no literal value. It always returns at least one.
func (w *walker) word(word *syntax.Word) []arg {
	if word == nil || len(word.Parts) == 0 {
		return []arg{{ok: true}}
	}
	raw := w.text(word)
	var out []arg
	for _, x := range braces(word) {
		lit, ok := literal(x.Parts)
		out = append(out, arg{lit: lit, ok: ok, raw: raw})
	}
	return out
}

// text is word as written in the source.
func (w *walker) text(n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(w.src) || s > e {
		return ""
	}
	return w.src[s:e]
}

// literal is the value of parts with quotes removed, or ok=false when a part
// is only known at run time.
func literal(parts []syntax.WordPart) (string, bool) {
	var b strings.Builder
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value, false))
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(unescape(lit.Value, true))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// unescape removes the backslashes the shell removes: before any character
// outside quotes, before $ ` " \ and newline inside double quotes; a
// backslash-newline disappears.
func unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
			i++
		case !quoted || strings.IndexByte("$`\"\\", next) >= 0:
			b.WriteByte(next)
			i++
		default:
			b.WriteByte('\\')
		}
	}
	return b.String()
}
