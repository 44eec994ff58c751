package shellwrites

import (
	"path"
	"slices"
	"strings"

	"github.com/tausik/tausik/internal/hosts/shellwrites/getopt"
)

// writes reports the commands that write the files their arguments name
// (under xargs or find -exec the arguments are not in the command line),
// and the shells (their arguments are commands).
func writes(name string) bool {
	if _, ok := fileSpecs[name]; ok {
		return true
	}
	l, ok := langOf(name)
	return ok && l.shell || slices.Contains([]string{"dd", "chmod", "chown", "chgrp", "sed", "gsed", "perl", "git", "patch", "tar",
		"unzip", "zip", "cpio", "curl", "wget", "rsync"}, name)
}

// xargs runs its command with arguments read from its input: a writer under
// it writes paths that are not in the command line.
func (w *walker) xargs(rest []arg, st *state) {
	opts, cmd := getopt.Parse(getopt.Xargs, rest)
	if len(cmd) == 0 {
		return // echo
	}
	in := w.in
	w.in = nil // the command's input is not xargs' own
	w.xargsIn = true
	w.run(cmd, st)
	w.in, w.xargsIn = in, false
	name := ""
	for c := cmd; len(c) > 0 && c[0].ok; {
		name = path.Base(c[0].lit)
		if name != "sudo" && name != "env" && name != "nohup" && name != "nice" {
			break
		}
		c = c[1:]
	}
	if writes(name) || !cmd[0].ok {
		text := "xargs " + joinRaw(rest)
		if f, ok := getopt.Value(opts, "a", "arg-file"); ok && f.ok {
			w.unknown(text, reasonFromFile)
			return
		}
		w.unknown(text, reasonXargs)
	}
}

// chdir moves st to cd's operand; a directory known only at run time makes
// later relative paths Unknown.
func (w *walker) chdir(name string, rest []arg, st *state) {
	opts, ops := getopt.Parse(getopt.Spec{}, rest)
	if len(ops) > 0 && getopt.Has(opts, "P") && strings.Contains(ops[0].lit, "..") {
		*st = state{} // cd -P resolves a link before its "..": the shell's walk, not ours
		return
	}
	if name == "pushd" && (len(ops) == 0 || ops[0].ok && (strings.HasPrefix(ops[0].lit, "+") || strings.HasPrefix(ops[0].lit, "-"))) {
		*st = state{} // pushd, pushd +N: a directory of the stack
		return
	}
	if len(ops) == 0 {
		*st = *cd(st, arg{lit: "~", ok: true})
		return
	}
	if ops[0].ok && ops[0].lit == "-" || w.job.cdPath && !strings.HasPrefix(ops[0].lit, "/") && !strings.HasPrefix(ops[0].lit, ".") {
		*st = state{} // the last directory, or one CDPATH finds
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

// shellString parses a command string given to a shell (sh -c, env -S).
func (w *walker) shellString(s arg, st *state) {
	if !s.ok {
		w.hidden(s.raw, reasonShellC)
		return
	}
	cp := *st
	w.parse(s.lit, &cp)
}

// eval runs its words joined as a shell command: literal words are parsed
// like sh -c (what they run is recorded), and the call stays Unknown; a word
// built at run time hides what runs.
func (w *walker) eval(args []arg, st *state) {
	text := arg{ok: true, raw: joinRaw(args)}
	for i, a := range args[1:] {
		if !a.ok {
			w.hidden(joinRaw(args), reasonEval)
			return
		}
		if i > 0 {
			text.lit += " "
		}
		text.lit += a.lit
	}
	w.unknown(joinRaw(args), reasonEval)
	w.shellString(text, st)
}

// findFollows reports whether find's arguments may make it follow symbolic
// links (-L, -follow, or a word known only when it runs).
func findFollows(rest []arg) bool {
	return slices.ContainsFunc(rest, func(a arg) bool { return !a.ok || a.lit == "-L" || a.lit == "-follow" })
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
		if !a.ok || !slices.Contains(findExprs, a.lit) {
			continue
		}
		switch a.lit {
		case "-delete":
			if findFollows(rest) {
				w.writeAll(starts, st) // -L, -follow: it deletes through links
			} else {
				w.removeAll(starts, st)
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(rest) && !(rest[j].ok && (rest[j].lit == ";" || rest[j].lit == "+")) {
				j++
			}
			inner := rest[i+1 : j]
			l, isLang := langOf(path.Base(inner0(inner)))
			switch {
			case len(inner) > 0 && inner[0].ok && writes(path.Base(inner[0].lit)) && !(isLang && l.shell):
				in := st
				if a.lit == "-execdir" || a.lit == "-okdir" {
					in = &state{} // they run in each file's directory
				}
				w.record(inner, in)
				w.writeAll(starts, st)
			case len(inner) > 0: // sh -c '…', python3 -c …: judged as they run
				in, cp := w.in, *st
				w.in = nil
				if a.lit == "-execdir" || a.lit == "-okdir" {
					cp.known = false // they run in each file's directory
				}
				w.run(inner, &cp)
				w.in = in
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

// inner0 is the name of the command find -exec runs, "" when unknown.
func inner0(inner []arg) string {
	if len(inner) == 0 || !inner[0].ok {
		return ""
	}
	return inner[0].lit
}
