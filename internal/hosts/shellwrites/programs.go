package shellwrites

import (
	"slices"
	"strings"

	"github.com/tausik/tausik/internal/hosts/shellwrites/shtext"
)

// lang says how an interpreter is given its program: code lists the short
// options whose value is program text (for a shell, the -c switch that makes
// the first operand program text), long the long ones, valued the short
// options that take another value, stdin the switch that reads the program
// from standard input, module the switch that names a module to run (a
// program, like a script).
type lang struct {
	code, valued, stdin, module string
	long, longValued            []string
	shell                       bool
}

var (
	shellLang = lang{code: "c", valued: "oO", stdin: "s", shell: true, longValued: []string{"rcfile", "init-file"}}
	langs     = map[string]lang{
		"sh": shellLang, "bash": shellLang, "dash": shellLang, "zsh": shellLang, "ksh": shellLang,
		"ash": shellLang, "mksh": shellLang, "yash": shellLang, "posh": shellLang, "rbash": shellLang,
		"fish":   {code: "c", shell: true, long: []string{"command", "init-command"}, valued: "C"},
		"python": {code: "c", valued: "WXQ", module: "m"}, "pypy": {code: "c", valued: "WXQ", module: "m"},
		"node":    {code: "ep", valued: "rC", long: []string{"eval", "print"}, longValued: []string{"require", "import", "loader", "experimental-loader", "input-type", "conditions", "title", "env-file"}},
		"nodejs":  {code: "ep", valued: "rC", long: []string{"eval", "print"}, longValued: []string{"require", "import", "loader", "input-type", "conditions"}},
		"bun":     {code: "ep", long: []string{"eval", "print"}},
		"ruby":    {code: "ei", valued: "IrCEFx"},
		"irb":     {},
		"php":     {code: "rBRE", valued: "cdz", module: "f"},
		"lua":     {code: "e", valued: "l"},
		"luajit":  {code: "e", valued: "lbj"},
		"tclsh":   {},
		"wish":    {},
		"Rscript": {code: "e"}, "R": {code: "e"},
		"osascript":  {code: "e"},
		"pwsh":       {code: "cC", long: []string{"command", "Command", "encodedcommand", "EncodedCommand"}},
		"powershell": {code: "cC", long: []string{"command", "Command", "encodedcommand", "EncodedCommand"}},
		"jshell":     {}, "ghci": {code: "e"}, "guile": {code: "c"}, "racket": {code: "e"}, "sbcl": {long: []string{"eval"}},
		"julia": {code: "eE", long: []string{"eval", "print"}}, "elixir": {code: "e", long: []string{"eval"}},
		"erl": {long: []string{"eval"}}, "scala": {code: "e"}, "groovy": {code: "e"}, "kotlin": {}, "swift": {code: "e"},
	}
	// editors write any file their commands say; an agent's shell only runs
	// them with commands (-c, -s, ex mode, stdin, --batch).
	editors = map[string]bool{"vi": true, "vim": true, "nvim": true, "view": true, "gvim": true, "rvim": true, "vimdiff": true,
		"ex": true, "ed": true, "red": true, "emacs": true, "emacsclient": true, "xemacs": true, "kak": true, "joe": true}
)

// langOf finds the interpreter name stands for: python3.11, pypy3, lua5.4
// and ruby3.2 are python, pypy, lua and ruby.
func langOf(name string) (lang, bool) {
	if l, ok := langs[name]; ok {
		return l, true
	}
	l, ok := langs[strings.TrimRight(name, "0123456789.-")]
	return l, ok
}

// program judges an interpreter's command line: a program given inline or on
// standard input is Unknown (for a shell, a literal one is parsed instead); a
// script or module named on the command line is a program that writes by
// itself, out of reach.
func (w *walker) program(l lang, args []arg, st *state) {
	withC, fromStdin := false, false
	var script *arg
loop:
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case !a.ok:
			script = &args[i]
			break loop
		case a.lit == "-":
			fromStdin = true
			break loop
		case a.lit == "--":
			if i+1 < len(args) {
				script = &args[i+1]
			}
			break loop
		case strings.HasPrefix(a.lit, "--"):
			n, _, hasValue := strings.Cut(a.lit[2:], "=")
			for _, c := range l.long {
				if n != "" && strings.HasPrefix(c, n) {
					if l.shell { // fish --command: the value is the program
						w.shellString(arg{lit: strings.TrimPrefix(a.lit[2:], n+"="), ok: hasValue, raw: a.raw}, st)
						return
					}
					w.unknown(joinRaw(args), reasonInline)
					return
				}
			}
			if slices.Contains(l.longValued, n) && !hasValue {
				i++
			}
		case strings.HasPrefix(a.lit, "-") || (l.shell && strings.HasPrefix(a.lit, "+") && len(a.lit) > 1):
			sw := a.lit[1:]
			for j := 0; j < len(sw); j++ {
				c := sw[j]
				switch {
				case strings.IndexByte(l.code, c) >= 0 && l.shell:
					withC = true
				case strings.IndexByte(l.code, c) >= 0:
					w.unknown(joinRaw(args), reasonInline)
					return
				case strings.IndexByte(l.stdin, c) >= 0:
					fromStdin = true
				case strings.IndexByte(l.module, c) >= 0:
					return // python -m pytest: a module, run like a script
				case strings.IndexByte(l.valued, c) >= 0:
					if j+1 == len(sw) {
						i++
					}
					j = len(sw)
				}
			}
			if fromStdin && l.shell {
				break loop // bash -s ARGS: the operands are the script's arguments
			}
		default:
			script = &args[i]
			break loop
		}
	}
	switch {
	case withC && script != nil:
		w.shellString(*script, st)
	case withC:
	case script != nil && !script.ok && strings.HasPrefix(script.raw, "<("):
		w.hidden(joinRaw(args), reasonStdin) // bash <(curl …): the program is another command's output
	case script != nil && (script.lit == "/dev/stdin" || script.lit == "/dev/fd/0"):
		w.stdinProgram(l, args, st, true)
	case script == nil:
		w.stdinProgram(l, args, st, fromStdin)
	}
}

// stdinProgram judges an interpreter that reads its program from standard
// input: a shell's literal here-document or here-string is parsed; any
// other input (a pipe, a file, an expansion) is Unknown. explicit is an
// interpreter told to read standard input even when it is the caller's.
func (w *walker) stdinProgram(l lang, args []arg, st *state, explicit bool) {
	in := w.in
	if in == nil {
		if explicit {
			w.unknown(joinRaw(args), reasonStdin)
		}
		return // an interactive interpreter reading the caller's input
	}
	if l.shell && (in.kind == inHereDoc || in.kind == inHereString) {
		if body, ok := literal(in.word.Parts); ok {
			cp := *st
			w.parse(body, &cp, &input{kind: inScript})
			return
		}
	}
	if l.shell && in.kind != inFile {
		w.hidden(joinRaw(args), reasonStdin) // a shell reading a pipe or a built text
		return
	}
	w.unknown(joinRaw(args), reasonStdin)
}

// editor reports an editor: with commands it writes what they say, and in
// an agent's shell it only runs with commands. --version and --help pass.
func (w *walker) editor(args []arg) {
	for _, a := range args[1:] {
		if !a.ok || !slices.Contains([]string{"--version", "--help", "-h", "-V"}, a.lit) {
			w.unknown(joinRaw(args), reasonEditor)
			return
		}
	}
	if len(args) == 1 {
		w.unknown(joinRaw(args), reasonEditor)
	}
}

// source runs a script in the current shell: a named script is a program,
// one read from a process substitution or standard input is Unknown.
func (w *walker) source(args []arg) {
	if len(args) < 2 {
		return
	}
	s := args[1]
	if (!s.ok && strings.HasPrefix(s.raw, "<(")) || (s.ok && (s.lit == "/dev/stdin" || s.lit == "/dev/fd/0" || s.lit == "-")) {
		w.unknown(joinRaw(args), reasonStdin)
	}
}

// perl -i edits its file operands in place; perl -e / -E without -i runs
// inline code, which may open anything; perl with no script reads it from
// standard input.
func (w *walker) perl(args []arg, st *state) {
	inPlace, code := false, false
	var ops []arg
	var codeText []string
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
				switch {
				case j+1 < len(sw):
					codeText = append(codeText, sw[j+1:])
				case i+1 < len(args) && args[i+1].ok:
					i++
					codeText = append(codeText, args[i].lit)
				default:
					i++
					codeText = append(codeText, "`dynamic`")
				}
				break
			}
			if strings.IndexByte("IMmxdDFlC0", c) >= 0 {
				break // these take the rest of the switch as their value
			}
		}
	}
	switch {
	case code && inPlace && shtext.PerlSubstitutes(codeText):
		w.writeAll(ops, st) // perl -pi -e 's/a/b/' f: a sed -i
	case code:
		w.unknown(joinRaw(args), reasonInline)
	case len(ops) == 0 || (ops[0].ok && (ops[0].lit == "-" || ops[0].lit == "/dev/stdin")) || (!ops[0].ok && strings.HasPrefix(ops[0].raw, "<(")):
		w.stdinProgram(lang{}, args, st, len(ops) > 0)
	case inPlace:
		w.unknown(joinRaw(args), reasonInline) // the script edits the files it is given
	}
}

// awk writes files through its program's print > "file", system() and
// pipes, or -i inplace; such a program is Unknown, a plain one writes
// nothing. gawk's -o, -p and -d write files of their own.
func (w *walker) awk(args []arg, st *state) {
	inPlace, fromFile := false, false
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !a.ok {
			if !fromFile {
				w.unknown(joinRaw(args), reasonInline)
			}
			return
		}
		switch {
		case a.lit == "-i" || a.lit == "--include":
			inPlace = inPlace || (i+1 < len(args) && args[i+1].lit == "inplace")
			i++
		case a.lit == "-f" || a.lit == "--file":
			fromFile = true
			i++
		case strings.HasPrefix(a.lit, "--file="):
			fromFile = true
		case a.lit == "-e" || a.lit == "--source" || strings.HasPrefix(a.lit, "--source="):
			text := strings.TrimPrefix(a.lit, "--source=")
			if !strings.HasPrefix(a.lit, "--source=") && i+1 < len(args) {
				i++
				text = args[i].lit
			}
			if shtext.AwkWrites(text) {
				w.unknown(joinRaw(args), reasonInline)
				return
			}
			fromFile = true
		case a.lit == "-v" || a.lit == "-F":
			i++
		case strings.HasPrefix(a.lit, "-o") || strings.HasPrefix(a.lit, "-p") || strings.HasPrefix(a.lit, "-d") ||
			strings.HasPrefix(a.lit, "--pr") || strings.HasPrefix(a.lit, "--du") || strings.HasPrefix(a.lit, "--lo"):
			w.unknown(joinRaw(args), reasonOption+a.lit)
			return
		case strings.HasPrefix(a.lit, "-") && a.lit != "-":
		default:
			ops := args[i:]
			if !fromFile {
				if shtext.AwkWrites(a.lit) {
					w.unknown(joinRaw(args), reasonInline)
					return
				}
				ops = ops[1:]
			}
			if inPlace {
				w.writeAll(ops, st)
			}
			return
		}
	}
}
