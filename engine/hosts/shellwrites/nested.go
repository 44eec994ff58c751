package shellwrites

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// writers are the commands that write the files their arguments name; under
// xargs the arguments it appends are not in the command line.
var writers = map[string]bool{
	"tee": true, "cp": true, "mv": true, "ln": true, "install": true, "rm": true, "rmdir": true,
	"unlink": true, "shred": true, "touch": true, "mkdir": true, "truncate": true, "dd": true,
	"sed": true, "gsed": true, "perl": true, "git": true,
}

// xargs runs its command with arguments read from its input: a writer under
// it writes paths that are not in the command line.
func (w *walker) xargs(rest []arg, st *state) {
	opts, cmd := xargsSpec.parse(rest)
	if len(cmd) == 0 {
		return // echo
	}
	w.run(cmd, st, nil)
	name := ""
	for c := cmd; len(c) > 0 && c[0].ok; {
		name = path.Base(c[0].lit)
		if name != "sudo" && name != "env" && name != "nohup" && name != "nice" {
			break
		}
		c = c[1:]
	}
	if writers[name] || !cmd[0].ok || shells[name] {
		text := "xargs " + joinRaw(rest)
		if f, ok := value(opts, "a", "arg-file"); ok && f.ok {
			w.unknown(text, reasonFromFile)
			return
		}
		w.unknown(text, reasonXargs)
	}
}

// chdir moves st to cd's operand; a directory known only at run time makes
// later relative paths Unknown.
func (w *walker) chdir(rest []arg, st *state) {
	_, ops := spec{}.parse(rest)
	if len(ops) == 0 {
		*st = *cd(st, arg{lit: "~", ok: true})
		return
	}
	if ops[0].ok && ops[0].lit == "-" {
		st.known = false
		return
	}
	*st = *cd(st, ops[0])
}

// cd is st moved to d.
func cd(st *state, d arg) *state {
	switch {
	case !d.ok:
		return &state{known: false}
	case path.IsAbs(d.lit) || strings.HasPrefix(d.lit, "~"):
		return &state{dir: path.Clean(d.lit), known: true}
	case !st.known:
		return &state{known: false}
	default:
		return &state{dir: path.Join(st.dir, d.lit), known: st.known}
	}
}

// shell handles sh/bash/zsh…: with -c the string is parsed in turn when it
// is literal; with a here-document and no script, the body is the script.
// bash script.sh runs a program: out of reach.
func (w *walker) shell(args []arg, st *state, hdoc *syntax.Word) {
	opts, ops := shellSpec.parse(args[1:])
	withC := false
	for _, o := range opts {
		if strings.Contains(o.name, "c") && len(o.name) == 1 {
			withC = true
		}
	}
	switch {
	case withC && len(ops) > 0:
		w.shellString(ops[0], st)
	case withC:
	case len(ops) == 0 && hdoc != nil:
		lit, ok := literal(hdoc.Parts)
		if !ok {
			w.unknown(w.text(hdoc), reasonShellC)
			return
		}
		cp := *st
		w.parse(lit, &cp)
	}
}

// shellString parses a command string given to a shell (sh -c, env -S).
func (w *walker) shellString(s arg, st *state) {
	if !s.ok {
		w.unknown(s.raw, reasonShellC)
		return
	}
	cp := *st
	w.parse(s.lit, &cp)
}

// git: checkout -- PATHS and checkout TREE -- PATHS, restore PATHS (unless
// only --staged), rm PATHS (unless --cached), mv like mv, clean [PATHS].
// -C DIR and --work-tree move where the paths are read from.
func (w *walker) git(rest []arg, st *state) {
	opts, cmd := gitSpec.parse(rest)
	for _, o := range opts {
		if o.name == "C" || o.name == "work-tree" {
			st = cd(st, o.value)
		}
	}
	if len(cmd) == 0 || !cmd[0].ok {
		return
	}
	sub, args := cmd[0].lit, cmd[1:]
	switch sub {
	case "checkout":
		for i, a := range args {
			if a.ok && a.lit == "--" {
				w.writeAll(args[i+1:], st)
				return
			}
		}
	case "restore":
		o, ops := restoreSpec.parse(args)
		if has(o, "S", "staged") && !has(o, "W", "worktree") {
			return
		}
		if f, ok := value(o, "pathspec-from-file"); ok {
			w.unknown("git restore --pathspec-from-file="+f.raw, reasonFromFile)
		}
		w.writeAll(ops, st)
	case "rm":
		o, ops := gitRmSpec.parse(args)
		if !has(o, "cached") {
			w.writeAll(ops, st)
		}
	case "mv":
		o, ops := spec{}.parse(args)
		w.copyLike("mv", o, ops, st)
	case "clean":
		o, ops := cleanSpec.parse(args)
		if has(o, "n", "dry-run") {
			return
		}
		if len(ops) == 0 {
			ops = []arg{{lit: ".", ok: true, raw: "git clean"}}
		}
		w.writeAll(ops, st)
	}
}

// find with -delete, -exec / -execdir / -ok of a writer, or -fprint FILE:
// its start points are where the writes land (-fprint names its file).
func (w *walker) find(rest []arg, st *state) {
	var starts []arg
	i := 0
	for ; i < len(rest); i++ {
		a := rest[i]
		if a.ok && (strings.HasPrefix(a.lit, "-") || a.lit == "(" || a.lit == "!") {
			break
		}
		starts = append(starts, a)
	}
	if len(starts) == 0 {
		starts = []arg{{lit: ".", ok: true, raw: "find"}}
	}
	for ; i < len(rest); i++ {
		a := rest[i]
		if !a.ok || !contains(findExprs, a.lit) {
			continue
		}
		switch a.lit {
		case "-delete":
			w.writeAll(starts, st)
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(rest) && !(rest[j].ok && (rest[j].lit == ";" || rest[j].lit == "+")) {
				j++
			}
			inner := rest[i+1 : j]
			if len(inner) > 0 && inner[0].ok && (writers[path.Base(inner[0].lit)] || shells[path.Base(inner[0].lit)]) {
				w.writeAll(starts, st)
			}
			i = j
		default: // -fprint FILE, -fls FILE, -fprintf FILE FORMAT
			if i+1 < len(rest) {
				w.write(rest[i+1], st, "")
				i++
			}
		}
	}
}
