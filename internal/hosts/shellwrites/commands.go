package shellwrites

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/tausik/tausik/internal/hosts/shellwrites/getopt"
)

// findExprs are find's actions that write or run a command.
var findExprs = []string{"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}

// wrappers run the command that follows their own options.
var wrappers = map[string]bool{
	"sudo": true, "doas": true, "env": true, "nohup": true, "builtin": true, "command": true, "exec": true,
	"nice": true, "timeout": true, "stdbuf": true, "ionice": true, "time": true, "xargs": true,
	"setsid": true, "unbuffer": true, "fakeroot": true, "chronic": true, "torsocks": true, "proxychains": true,
	"proxychains4": true, "busybox": true, "toybox": true, "catchsegv": true, "caffeinate": true, "taskset": true,
	"chrt": true, "flock": true, "strace": true, "ltrace": true,
}

// call runs the body of the shell function args[0] names where it is
// called (a function named cd, git or cp is not the command the rest of
// this file models; command and builtin still reach those). A function
// calling itself is Unknown, and leaves the directory unknown.
func (w *walker) call(args []arg, body *syntax.Stmt, st *state) {
	name := args[0].lit
	if w.job.calling[name] {
		w.hidden(joinRaw(args), "a shell function that calls itself")
		*st = state{}
		return
	}
	w.job.calling[name] = true
	defer delete(w.job.calling, name)
	w.stmt(body, st)
}

// run judges one simple command, args already expanded.
func (w *walker) run(args []arg, st *state) {
	if len(args) == 0 {
		return
	}
	w.job.step()
	name, rest := path.Base(args[0].lit), args[1:]
	query := name == "command" && len(rest) > 0 && rest[0].ok && (rest[0].lit == "-v" || rest[0].lit == "-V")
	if !args[0].ok || !wrappers[name] || query {
		w.record(args, st)
	}
	if !args[0].ok {
		w.dynamicProgram(args)
		return
	}
	if body, ok := w.job.funcs[args[0].lit]; ok && len(w.job.wraps) == 0 {
		w.call(args, body, st)
		return
	}
	if wrappers[name] {
		w.job.wraps = append(w.job.wraps, args[0].lit)
		defer func() { w.job.wraps = w.job.wraps[:len(w.job.wraps)-1] }()
	}
	if w.wrapper(name, rest, st) {
		return
	}
	switch {
	case name == "cd" || name == "pushd":
		w.chdir(name, rest, st)
	case name == "popd":
		st.known = false
	case name == "eval":
		w.eval(args, st)
	case name == "alias":
		for _, a := range rest {
			if !a.ok || strings.Contains(a.lit, "=") {
				w.hidden(joinRaw(args), reasonAlias)
				return
			}
		}
	case name == "source" || name == ".":
		w.source(args)
	case name == "git":
		w.git(rest, st)
	case name == "find":
		w.find(rest, st)
	case name == "perl" || strings.HasPrefix(name, "perl5"):
		w.perl(args, st)
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk" || name == "busybox" && len(rest) > 0 && rest[0].lit == "awk":
		w.awk(args, st)
	case editors[name]:
		w.editor(args)
	case name == "deno":
		if len(rest) > 0 && rest[0].ok && (rest[0].lit == "eval" || rest[0].lit == "repl") || len(rest) > 1 && rest[1].lit == "-" {
			w.unknown(joinRaw(args), reasonInline)
		}
	default:
		if l, ok := langOf(name); ok {
			w.program(l, args, st)
			return
		}
		w.fileCommand(name, args, st)
	}
}

// wrapper handles the commands that run another, and reports whether name
// was one.
func (w *walker) wrapper(name string, rest []arg, st *state) bool {
	switch name {
	case "sudo", "doas":
		w.sudo(rest, st)
	case "env":
		opts, cmd := getopt.Parse(getopt.Env, rest)
		if s, ok := getopt.Value(opts, "S", "split-string"); ok {
			w.shellString(s, st)
			return true
		}
		for len(cmd) > 0 && cmd[0].ok && strings.Contains(cmd[0].lit, "=") {
			name, _, _ := strings.Cut(cmd[0].lit, "=")
			w.job.setVar(name)
			cmd = cmd[1:]
		}
		if d, ok := getopt.Value(opts, "C", "chdir"); ok {
			st = cd(st, d)
		}
		w.run(cmd, st)
	case "nohup", "builtin":
		w.run(rest, st)
	case "command":
		opts, cmd := getopt.Parse(getopt.Spec{StopAtOperand: true}, rest)
		if !getopt.Has(opts, "v", "V") {
			w.run(cmd, st)
		}
	case "exec":
		_, cmd := getopt.Parse(getopt.Exec, rest)
		w.run(cmd, st)
	case "nice":
		_, cmd := getopt.Parse(getopt.Nice, rest)
		w.run(cmd, st)
	case "timeout":
		if _, cmd := getopt.Parse(getopt.Timeout, rest); len(cmd) > 0 {
			w.run(cmd[1:], st)
		}
	case "stdbuf":
		_, cmd := getopt.Parse(getopt.Stdbuf, rest)
		w.run(cmd, st)
	case "ionice":
		_, cmd := getopt.Parse(getopt.Ionice, rest)
		w.run(cmd, st)
	case "time":
		opts, cmd := getopt.Parse(getopt.Time, rest)
		if o, ok := getopt.Value(opts, "o", "output"); ok {
			w.write(o, st, "")
		}
		w.run(cmd, st)
	case "xargs":
		w.xargs(rest, st)
	case "setsid", "unbuffer", "fakeroot", "chronic", "torsocks", "proxychains", "proxychains4", "busybox", "toybox", "catchsegv", "caffeinate":
		_, cmd := getopt.Parse(getopt.Spec{StopAtOperand: true}, rest)
		w.run(cmd, st)
	case "taskset", "chrt": // a mask or priority, then the command
		if _, cmd := getopt.Parse(getopt.Spec{StopAtOperand: true}, rest); len(cmd) > 0 {
			w.run(cmd[1:], st)
		}
	case "strace", "ltrace":
		opts, cmd := getopt.Parse(getopt.Strace, rest)
		w.writeAll(getopt.Values(opts, "o", "output"), st)
		w.run(cmd, st)
	case "flock":
		opts, ops := getopt.Parse(getopt.Flock, rest)
		if len(ops) > 0 {
			w.write(ops[0], st, "") // the lock file is created
		}
		switch c, ok := getopt.Value(opts, "c", "command"); {
		case ok:
			w.shellString(c, st)
		case len(ops) > 2 && ops[1].ok && (ops[1].lit == "-c" || ops[1].lit == "--command"):
			w.shellString(ops[2], st) // flock FILE -c COMMAND
		case len(ops) > 1:
			w.run(ops[1:], st)
		}
	default:
		return w.stringRunner(name, rest, st)
	}
	return true
}

// sudo runs its command as another user: in the directory -D names, or,
// with -i, in that user's home, which is known only at run time.
func (w *walker) sudo(rest []arg, st *state) {
	opts, cmd := getopt.Parse(getopt.Sudo, rest)
	if d, ok := getopt.Value(opts, "D", "chdir"); ok {
		st = cd(st, d)
	}
	if getopt.Has(opts, "i", "login") {
		st = &state{}
	}
	w.run(cmd, st)
}

// stringRunner handles the commands that run a command string with sh -c
// (watch, su -c, runuser -c, script -c, trap), and reports whether name was
// one.
func (w *walker) stringRunner(name string, rest []arg, st *state) bool {
	switch name {
	case "watch":
		opts, ops := getopt.Parse(getopt.Watch, rest)
		if getopt.Has(opts, "x", "exec") {
			w.run(ops, st)
			return true
		}
		joined := arg{lit: "", ok: true, raw: joinRaw(ops)}
		for i, a := range ops {
			joined.ok = joined.ok && a.ok
			if i > 0 {
				joined.lit += " "
			}
			joined.lit += a.lit
		}
		w.shellString(joined, st)
	case "su", "runuser", "script":
		opts, ops := getopt.Parse(getopt.Su, rest)
		if c, ok := getopt.Value(opts, "c", "command"); ok {
			w.shellString(c, st)
		}
		if name == "script" {
			if len(ops) == 0 {
				ops = []arg{{lit: "typescript", ok: true, raw: "script"}}
			}
			w.write(ops[0], st, "")
		}
	case "trap":
		if len(rest) > 1 && rest[0].ok && rest[0].lit != "-" && !strings.HasPrefix(rest[0].lit, "-") {
			w.shellString(rest[0], st) // the handler runs later, in this shell
		}
	default:
		return false
	}
	return true
}

// dynamicProgram judges a command whose name is known only at run time: a
// program out of reach, unless it is given inline code or its program on
// standard input the way an interpreter is ($PY -c …, "$SHELL" <<EOF).
func (w *walker) dynamicProgram(args []arg) {
	if w.in != nil && w.in.kind != inFile {
		w.hidden(joinRaw(args), reasonStdin)
		return
	}
	for _, a := range args[1:] {
		if a.ok && (slices.Contains([]string{"--eval", "--print", "--command", "-Command", "-"}, a.lit) ||
			len(a.lit) > 1 && a.lit[0] == '-' && a.lit[1] != '-' && strings.ContainsAny(a.lit[len(a.lit)-1:], "cerE")) {
			w.unknown(joinRaw(args), reasonInline)
			return
		}
	}
}

// record appends args, run from st, to the commands the shell would run.
func (w *walker) record(args []arg, st *state) {
	c := Command{Argv: make([]string, len(args)), Dynamic: make([]bool, len(args)), Dir: st.dir, DirUnknown: !st.known}
	if !st.known {
		c.Dir = ""
	}
	for i, a := range args {
		c.Argv[i], c.Dynamic[i] = a.lit, !a.ok
		if !a.ok {
			c.Argv[i] = a.raw
		}
	}
	if len(w.job.wraps) > 0 {
		c.Wrapped = append([]string(nil), w.job.wraps...)
	}
	if w.xargsIn {
		// xargs appends the words it reads: one more word, known only when
		// it runs (xargs tausik is tausik with a subcommand from stdin).
		w.xargsIn = false
		c.Argv, c.Dynamic = append(c.Argv, "{xargs input}"), append(c.Dynamic, true)
	}
	c.Redirects, c.Heredocs = slices.Clone(w.redirs), slices.Clone(w.hdocs)
	w.job.res.Commands = append(w.job.res.Commands, c)
}

func (w *walker) writeAll(ops []arg, st *state) {
	for _, a := range ops {
		w.write(a, st, "")
	}
}

// removeAll writes each operand as a removal: what a symbolic link below it
// points to is not written.
func (w *walker) removeAll(ops []arg, st *state) {
	n := len(w.job.res.Writes)
	w.writeAll(ops, st)
	for i := n; i < len(w.job.res.Writes); i++ {
		w.job.res.Writes[i].Remove = true
	}
}

// copyLike handles cp, mv, install and ln: the destination (the last operand,
// or -t DIR) receives each source under its own name when it is a directory;
// mv also removes its sources. ln with one operand links it into ".".
func (w *walker) copyLike(name string, opts []opt, ops []arg, st *state) {
	if name == "mv" {
		for i, a := range ops {
			if i < len(ops)-1 || getopt.Has(opts, "t", "target-directory") {
				w.write(a, st, "")
			}
		}
	}
	dir, toDir := getopt.Value(opts, "t", "target-directory")
	srcs := ops
	if !toDir {
		switch {
		case len(ops) == 0:
			return
		case len(ops) == 1 && name == "ln":
			dir, toDir = arg{lit: ".", ok: true, raw: "."}, true
		case len(ops) == 1:
			return
		default:
			dir, srcs = ops[len(ops)-1], ops[:len(ops)-1]
			noDir := getopt.Has(opts, "T", "no-target-directory")
			toDir = !noDir && (len(srcs) > 1 || strings.HasSuffix(dir.lit, "/"))
			if !toDir {
				w.write(dir, st, baseOf(srcs[0], noDir))
				return
			}
		}
	}
	for _, s := range srcs {
		if !dir.ok || !s.ok {
			w.write(arg{raw: dir.raw + " " + s.raw}, st, "")
			continue
		}
		w.write(arg{lit: path.Join(dir.lit, path.Base(s.lit)), ok: true, raw: dir.raw}, st, "")
	}
}

// baseOf is the name a source lands under in a directory destination, ""
// when the destination is never a directory (-T) or the source is unknown.
func baseOf(src arg, noDir bool) string {
	if noDir || !src.ok {
		return ""
	}
	return path.Base(src.lit)
}

func joinRaw(args []arg) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.raw
	}
	return strings.Join(parts, " ")
}
