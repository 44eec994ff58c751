package shellwrites

import (
	"path"
	"strings"
)

// maxGitAliases bounds the aliases one command resolves (an alias may name
// another, or itself).
const maxGitAliases = 8

// gitConfigAlias reads `git -c alias.NAME=DEF`: a literal definition is
// kept for the subcommand that follows, and reports whether o was one.
func (w *walker) gitConfigAlias(o opt, defs map[string]string) bool {
	k, def, ok := strings.Cut(o.value.lit, "=")
	name, isAlias := strings.CutPrefix(strings.ToLower(k), "alias.")
	if !o.value.ok || !ok || !isAlias || name == "" {
		return false
	}
	defs[name] = def
	return true
}

// gitAlias judges a subcommand the analysis does not model: it may be an
// alias, defined by -c on the command line (defs) or in the repository's,
// the user's or the system's git configuration (Options.GitAlias). A
// resolved alias is judged as git runs it, "!CMD" as a shell command given
// the arguments, any other as git with its words, and stays Unknown either
// way (git config may change between the check and the run).
func (w *walker) gitAlias(text, sub string, args []arg, st *state, defs map[string]string) {
	def, ok := defs[strings.ToLower(sub)]
	if !ok && w.job.opts.GitAlias != nil && st.known && w.job.gitAliases < maxGitAliases {
		def, ok = w.job.opts.GitAlias(path.Join(w.job.opts.Dir, st.dir), sub)
	}
	if !ok || w.job.gitAliases >= maxGitAliases {
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
	w.unknown(text, "git "+sub+" is an alias of git "+def)
	var words []arg
	for _, f := range strings.Fields(def) {
		words = append(words, arg{lit: f, ok: true, raw: f})
	}
	w.git(append(words, args...), st)
}
