package shellwrites

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Option specs of the commands whose writes are read from their arguments.
var (
	sudoSpec    = spec{short: "u:g:p:C:D:h:r:t:U:T:", long: []string{"user", "group", "prompt", "close-from", "chdir", "host", "role", "type", "other-user", "command-timeout"}, stopAtOperand: true}
	envSpec     = spec{short: "u:C:S:", long: []string{"unset", "chdir", "split-string"}, stopAtOperand: true}
	niceSpec    = spec{short: "n:", long: []string{"adjustment"}, stopAtOperand: true}
	timeoutSpec = spec{short: "s:k:", long: []string{"signal", "kill-after"}, stopAtOperand: true}
	stdbufSpec  = spec{short: "i:o:e:", long: []string{"input", "output", "error"}, stopAtOperand: true}
	ioniceSpec  = spec{short: "c:n:p:P:u:", long: []string{"class", "classdata"}, stopAtOperand: true}
	timeSpec    = spec{short: "o:f:", long: []string{"output", "format"}, stopAtOperand: true}
	xargsSpec   = spec{short: "a:d:E:I:L:n:P:s:", long: []string{"arg-file", "delimiter", "eof", "replace", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"}, stopAtOperand: true}
	execSpec    = spec{short: "a:", stopAtOperand: true}
	teeSpec     = spec{long: []string{"output-error"}}
	cpSpec      = spec{short: "t:S:", long: []string{"target-directory", "suffix"}}
	installSpec = spec{short: "t:S:m:o:g:", long: []string{"target-directory", "suffix", "mode", "owner", "group", "strip-program"}}
	plainSpec   = spec{}
	shredSpec   = spec{short: "n:s:", long: []string{"iterations", "size", "random-source"}}
	touchSpec   = spec{short: "r:d:t:", long: []string{"reference", "date"}}
	mkdirSpec   = spec{short: "m:", long: []string{"mode"}}
	truncSpec   = spec{short: "s:r:", long: []string{"size", "reference"}}
	sedSpec     = spec{short: "e:f:l:", long: []string{"expression", "file", "line-length"}}
	shellSpec   = spec{short: "o:O:", stopAtOperand: true}
	gitSpec     = spec{short: "C:c:", long: []string{"git-dir", "work-tree", "namespace", "exec-path", "config-env"}, stopAtOperand: true}
	restoreSpec = spec{short: "s:", long: []string{"source", "conflict", "pathspec-from-file", "inter-hunk-context", "unified"}}
	gitRmSpec   = spec{long: []string{"pathspec-from-file"}}
	cleanSpec   = spec{short: "e:", long: []string{"exclude"}}
	pySpec      = spec{short: "c:m:W:X:", stopAtOperand: true}
	findExprs   = []string{"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}
)

// inlineFlags are the switches with which an interpreter runs code given on
// the command line.
var inlineFlags = map[string][]string{
	"node": {"-e", "--eval", "-p", "--print"}, "nodejs": {"-e", "--eval", "-p", "--print"},
	"bun": {"-e", "--eval", "-p", "--print"}, "ruby": {"-e"}, "php": {"-r"}, "lua": {"-e"},
	"luajit": {"-e"}, "Rscript": {"-e"}, "osascript": {"-e"}, "tclsh": {},
	"pwsh": {"-c", "-Command", "-command"}, "powershell": {"-c", "-Command", "-command"},
}

// shells are the interpreters whose -c string is parsed in turn.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "ash": true, "mksh": true, "busybox": false}

// run judges one simple command, args already expanded; hdoc is the
// here-document on its standard input, if any.
func (w *walker) run(args []arg, st *state, hdoc *syntax.Word) {
	if len(args) == 0 {
		return
	}
	name, rest := path.Base(args[0].lit), args[1:]
	query := name == "command" && len(rest) > 0 && rest[0].ok && (rest[0].lit == "-v" || rest[0].lit == "-V")
	if !args[0].ok || !wrappers[name] || query {
		w.record(args)
	}
	if !args[0].ok {
		return // a command named at run time is a program: out of reach
	}
	if wrappers[name] {
		*w.wraps = append(*w.wraps, args[0].lit)
		defer func() { *w.wraps = (*w.wraps)[:len(*w.wraps)-1] }()
	}
	switch {
	case name == "sudo" || name == "doas":
		_, cmd := sudoSpec.parse(rest)
		w.run(cmd, st, hdoc)
	case name == "env":
		opts, cmd := envSpec.parse(rest)
		if s, ok := value(opts, "S", "split-string"); ok {
			w.shellString(s, st)
			return
		}
		for len(cmd) > 0 && cmd[0].ok && strings.Contains(cmd[0].lit, "=") {
			cmd = cmd[1:]
		}
		if d, ok := value(opts, "C", "chdir"); ok {
			st = cd(st, d)
		}
		w.run(cmd, st, hdoc)
	case name == "nohup" || name == "builtin":
		w.run(rest, st, hdoc)
	case name == "command":
		opts, cmd := spec{stopAtOperand: true}.parse(rest)
		if !has(opts, "v", "V") {
			w.run(cmd, st, hdoc)
		}
	case name == "exec":
		_, cmd := execSpec.parse(rest)
		w.run(cmd, st, hdoc)
	case name == "nice":
		_, cmd := niceSpec.parse(rest)
		w.run(cmd, st, hdoc)
	case name == "timeout":
		if _, cmd := timeoutSpec.parse(rest); len(cmd) > 0 {
			w.run(cmd[1:], st, hdoc)
		}
	case name == "stdbuf":
		_, cmd := stdbufSpec.parse(rest)
		w.run(cmd, st, hdoc)
	case name == "ionice":
		_, cmd := ioniceSpec.parse(rest)
		w.run(cmd, st, hdoc)
	case name == "time":
		opts, cmd := timeSpec.parse(rest)
		if o, ok := value(opts, "o", "output"); ok {
			w.write(o, st, "")
		}
		w.run(cmd, st, hdoc)
	case name == "xargs":
		w.xargs(rest, st)
	case name == "cd" || name == "pushd":
		w.chdir(rest, st)
	case name == "popd":
		st.known = false
	case name == "eval":
		w.unknown(joinRaw(args), reasonEval)
	case shells[name]:
		w.shell(args, st, hdoc)
	case name == "git":
		w.git(rest, st)
	case name == "find":
		w.find(rest, st)
	default:
		if hdoc != nil && interpreters(name) {
			w.unknown(joinRaw(args)+" <<…", reasonInline) // python3 <<'EOF': the body is code
			return
		}
		w.fileCommand(name, args, st)
	}
}

// wrappers run the command that follows their own options.
var wrappers = map[string]bool{
	"sudo": true, "doas": true, "env": true, "nohup": true, "builtin": true, "command": true, "exec": true,
	"nice": true, "timeout": true, "stdbuf": true, "ionice": true, "time": true, "xargs": true,
}

// record appends args to the commands the shell would run.
func (w *walker) record(args []arg) {
	c := Command{Argv: make([]string, len(args)), Dynamic: make([]bool, len(args))}
	for i, a := range args {
		c.Argv[i], c.Dynamic[i] = a.lit, !a.ok
		if !a.ok {
			c.Argv[i] = a.raw
		}
	}
	if len(*w.wraps) > 0 {
		c.Wrapped = append([]string(nil), *w.wraps...)
	}
	w.res.Commands = append(w.res.Commands, c)
}

// interpreters reports the language interpreters inline code can be given to.
func interpreters(name string) bool {
	_, ok := inlineFlags[name]
	return ok || name == "perl" || strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy") || name == "deno"
}

// fileCommand handles the commands that write the files their arguments name.
func (w *walker) fileCommand(name string, args []arg, st *state) {
	rest := args[1:]
	switch name {
	case "tee":
		_, ops := teeSpec.parse(rest)
		w.writeAll(ops, st)
	case "cp", "mv", "ln":
		opts, ops := cpSpec.parse(rest)
		w.copyLike(name, opts, ops, st)
	case "install":
		opts, ops := installSpec.parse(rest)
		if has(opts, "d", "directory") {
			w.writeAll(ops, st)
			return
		}
		w.copyLike(name, opts, ops, st)
	case "rm", "rmdir", "unlink":
		_, ops := plainSpec.parse(rest)
		w.writeAll(ops, st)
	case "shred":
		_, ops := shredSpec.parse(rest)
		w.writeAll(ops, st)
	case "touch":
		_, ops := touchSpec.parse(rest)
		w.writeAll(ops, st)
	case "mkdir":
		_, ops := mkdirSpec.parse(rest)
		w.writeAll(ops, st)
	case "truncate":
		_, ops := truncSpec.parse(rest)
		w.writeAll(ops, st)
	case "dd":
		for _, a := range rest {
			if !a.ok {
				w.unknown(a.raw, reasonDynamic)
			} else if of, ok := strings.CutPrefix(a.lit, "of="); ok {
				w.write(arg{lit: of, ok: true, raw: a.raw}, st, "")
			}
		}
	case "sed", "gsed":
		w.sed(rest, st)
	case "perl":
		w.perl(args, st)
	case "awk", "gawk", "mawk", "nawk":
		w.awk(args, st)
	default:
		w.interpreter(name, args)
	}
}

func (w *walker) writeAll(ops []arg, st *state) {
	for _, a := range ops {
		w.write(a, st, "")
	}
}

// copyLike handles cp, mv, install and ln: the destination (the last operand,
// or -t DIR) receives each source under its own name when it is a directory;
// mv also removes its sources. ln with one operand links it into ".".
func (w *walker) copyLike(name string, opts []opt, ops []arg, st *state) {
	if name == "mv" {
		for i, a := range ops {
			if i < len(ops)-1 || has(opts, "t", "target-directory") {
				w.write(a, st, "")
			}
		}
	}
	dir, toDir := value(opts, "t", "target-directory")
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
			noDir := has(opts, "T", "no-target-directory")
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

// sed writes its operands only with -i (GNU -i[SUFFIX], --in-place[=SUFFIX],
// BSD -i ” / -i SUFFIX); a backup suffix writes FILE+SUFFIX too.
func (w *walker) sed(rest []arg, st *state) {
	inPlace, suffix := false, ""
	var kept []arg
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a.ok && a.lit == "-i" && i+1 < len(rest) && rest[i+1].ok && rest[i+1].lit == "":
			inPlace = true
			i++
		case a.ok && (a.lit == "--in-place" || strings.HasPrefix(a.lit, "--in-place=")):
			inPlace, suffix = true, strings.TrimPrefix(strings.TrimPrefix(a.lit, "--in-place"), "=")
		case a.ok && strings.HasPrefix(a.lit, "-") && !strings.HasPrefix(a.lit, "--") && strings.Contains(a.lit, "i"):
			flags, after, _ := strings.Cut(a.lit[1:], "i")
			if strings.ContainsAny(flags, "efl") { // -e… -f… -l…: the i is in a value
				kept = append(kept, a)
				continue
			}
			inPlace, suffix = true, after
			if flags != "" {
				kept = append(kept, arg{lit: "-" + flags, ok: true, raw: a.raw})
			}
		default:
			kept = append(kept, a)
		}
	}
	if !inPlace {
		return
	}
	opts, ops := sedSpec.parse(kept)
	if !has(opts, "e", "expression", "f", "file") && len(ops) > 0 {
		ops = ops[1:] // the first operand is the script
	}
	for _, f := range ops {
		w.write(f, st, "")
		if suffix != "" && f.ok && !strings.Contains(suffix, "*") {
			w.write(arg{lit: f.lit + suffix, ok: true, raw: f.raw}, st, "")
		}
	}
}

// perl -i edits its file operands in place; perl -e / -E without -i runs
// inline code, which may open anything.
func (w *walker) perl(args []arg, st *state) {
	inPlace, code := false, false
	var ops []arg
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !a.ok || !strings.HasPrefix(a.lit, "-") || a.lit == "-" {
			ops = append(ops, args[i:]...)
			break
		}
		if a.lit == "--" {
			ops = append(ops, args[i+1:]...)
			break
		}
		sw := a.lit[1:]
		for j := 0; j < len(sw); j++ {
			c := sw[j]
			if c == 'i' {
				inPlace = true
				break // the rest is the backup extension
			}
			if strings.IndexByte("eE", c) >= 0 {
				code = true
				if j+1 == len(sw) && i+1 < len(args) {
					i++
				}
				break
			}
			if strings.IndexByte("IMmxdDFlC0", c) >= 0 {
				break // these take the rest of the switch as their value
			}
		}
	}
	switch {
	case inPlace:
		if !code && len(ops) > 0 {
			ops = ops[1:] // the script file
		}
		w.writeAll(ops, st)
	case code:
		w.unknown(joinRaw(args), reasonInline)
	}
}

// awk writes files through its program's print > "file", system() and
// pipes, or -i inplace; such a program is Unknown, a plain one writes nothing.
func (w *walker) awk(args []arg, st *state) {
	inPlace := false
	for i, a := range args {
		if a.ok && (a.lit == "-i" || a.lit == "--include") && i+1 < len(args) && args[i+1].lit == "inplace" {
			inPlace = true
		}
		if a.ok && !strings.HasPrefix(a.lit, "-") && i > 0 && !(i > 1 && args[i-1].ok && contains([]string{"-i", "-f", "-v", "-F", "--include"}, args[i-1].lit)) {
			if strings.ContainsAny(a.lit, ">|") || strings.Contains(a.lit, "system") {
				w.unknown(joinRaw(args), reasonInline)
				return
			}
			if inPlace {
				w.writeAll(args[i+1:], st)
			}
			return
		}
	}
}

// interpreter reports a language interpreter given inline code.
func (w *walker) interpreter(name string, args []arg) {
	if strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy") {
		if opts, _ := pySpec.parse(args[1:]); has(opts, "c") {
			w.unknown(joinRaw(args), reasonInline)
		}
		return
	}
	if name == "deno" && len(args) > 1 && args[1].lit == "eval" {
		w.unknown(joinRaw(args), reasonInline)
		return
	}
	flags, ok := inlineFlags[name]
	if !ok {
		return
	}
	for _, a := range args[1:] {
		if a.ok && (contains(flags, a.lit) || (len(a.lit) > 2 && a.lit[0] == '-' && a.lit[1] != '-' && contains(flags, a.lit[:2]))) {
			w.unknown(joinRaw(args), reasonInline)
			return
		}
	}
}

func joinRaw(args []arg) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.raw
	}
	return strings.Join(parts, " ")
}
