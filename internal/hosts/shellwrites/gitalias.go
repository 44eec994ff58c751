package shellwrites

import (
	"path"
	"slices"
	"strings"
)

// maxGitAliases bounds the aliases one command resolves (an alias may name
// another, or itself).
const maxGitAliases = 8

// gitConfigAlias reads `git -c alias.NAME=DEF`: a literal definition is
// kept for the subcommand that follows, and reports whether o was one.
func (w *walker) gitConfigAlias(o opt, defs map[string]string) bool {
	k, def, ok := strings.Cut(o.Value.lit, "=")
	name, isAlias := strings.CutPrefix(strings.ToLower(k), "alias.")
	if !o.Value.ok || !ok || !isAlias || name == "" {
		return false
	}
	defs[name] = def
	return true
}

// gitAlias judges a subcommand the analysis does not model: it may be an
// alias, defined by -c on the command line (defs) or in the repository's,
// the user's or the system's git configuration (Options.GitAlias). A
// resolved alias is judged as git runs it, "!CMD" as a shell command given
// the arguments, any other as git with its global options (globals), its
// words and the arguments, run again from where git started (outer: the
// global options move the directory once more), and stays Unknown either
// way (git config may change between the check and the run).
func (w *walker) gitAlias(text string, globals []arg, sub string, args []arg, st, outer *state, defs map[string]string) {
	def, ok := defs[strings.ToLower(sub)]
	if !ok && w.job.opts.GitAlias != nil && st.known && w.job.gitAliases < maxGitAliases {
		def, ok = w.job.opts.GitAlias(path.Join(w.job.opts.Dir, st.dir), sub)
	}
	switch {
	case w.job.gitAliases >= maxGitAliases || !ok && w.job.opts.GitAlias != nil && !st.known:
		// Git follows an alias chain of any length (it stops only at a
		// loop), and an alias in a directory known only at run time cannot
		// be read: what runs is known only then.
		w.hideWord(1 + len(globals))
		w.unknown(text, "git "+sub+" may be an alias the analysis cannot follow (past 8 aliases, or in a directory known only at run time)")
		return
	case !ok:
		w.unknown(text, "the analysis does not model git "+sub+" (it may be an alias)")
		return
	}
	w.job.gitAliases++
	if sh, isShell := strings.CutPrefix(def, "!"); isShell {
		w.hidden(text, "git "+sub+" is an alias that runs the shell command "+sh)
		script := arg{lit: sh, ok: true, raw: def}
		for _, a := range args {
			script.lit += " " + a.lit
			script.ok = script.ok && a.ok
		}
		w.shellString(script, st)
		return
	}
	fields, ok := splitAlias(def)
	if !ok {
		w.unknown(text, "git "+sub+" is an alias git cannot split (an unclosed quote or a trailing backslash)")
		return
	}
	w.unknown(text, "git "+sub+" is an alias of git "+def)
	words := slices.Clone(globals)
	for _, f := range fields {
		words = append(words, arg{lit: f, ok: true, raw: f})
	}
	words = append(words, args...)
	w.rerecord(len(globals)+1+len(args), words)
	w.git(words, outer)
}

// rerecord replaces the words of the git command recorded last, whose
// first n after the program are an alias's invocation, with the command
// the alias stands for: the gates that judge argv (git_push_gate,
// bash_firewall) see the push an alias runs. Words the record appended
// (xargs input) are kept.
func (w *walker) rerecord(n int, words []arg) {
	cmds := w.job.res.Commands
	if len(cmds) == 0 || len(cmds[len(cmds)-1].Argv) < n+1 {
		return
	}
	c := &cmds[len(cmds)-1]
	argv, dyn := []string{c.Argv[0]}, []bool{c.Dynamic[0]}
	for _, a := range words {
		argv, dyn = append(argv, a.lit), append(dyn, !a.ok)
		if !a.ok {
			argv[len(argv)-1] = a.raw
		}
	}
	c.Argv, c.Dynamic = append(argv, c.Argv[n+1:]...), append(dyn, c.Dynamic[n+1:]...)
}

// hideWord marks word i of the command recorded last as known only at run
// time: the gates that judge argv treat it as anything, a push included.
func (w *walker) hideWord(i int) {
	cmds := w.job.res.Commands
	if len(cmds) > 0 && i < len(cmds[len(cmds)-1].Dynamic) {
		cmds[len(cmds)-1].Dynamic[i] = true
	}
}

// splitAlias splits an alias's definition into words as git does before
// running it: blanks separate words, single and double quotes group them
// and are removed, and a backslash outside single quotes keeps the next
// character as it is. ok is false where git refuses the definition.
func splitAlias(def string) (words []string, ok bool) {
	var b strings.Builder
	var quote rune
	inWord, escaped := false, false
	for _, c := range def {
		switch {
		case escaped:
			b.WriteRune(c)
			escaped = false
		case c == '\\' && quote != '\'':
			escaped, inWord = true, true
		case quote == 0 && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'):
			if inWord {
				words, inWord = append(words, b.String()), false
				b.Reset()
			}
		case quote == 0 && (c == '\'' || c == '"'):
			quote, inWord = c, true
		case c == quote:
			quote = 0
		default:
			b.WriteRune(c)
			inWord = true
		}
	}
	if quote != 0 || escaped {
		return nil, false
	}
	if inWord {
		words = append(words, b.String())
	}
	return words, true
}
