package shellwrites

import (
	"path"
	"slices"
	"strings"

	"github.com/tausik/tausik/internal/hosts/shellwrites/getopt"
)

var (
	// gitReads change nothing in the work tree.
	gitReads = map[string]bool{"status": true, "diff": true, "log": true, "show": true, "branch": true, "tag": true,
		"fetch": true, "remote": true, "rev-parse": true, "rev-list": true, "ls-files": true, "ls-tree": true, "ls-remote": true,
		"blame": true, "grep": true, "shortlog": true, "describe": true, "cat-file": true, "reflog": true, "add": true,
		"commit": true, "push": true, "init": true, "version": true, "help": true, "show-ref": true, "for-each-ref": true,
		"merge-base": true, "name-rev": true, "count-objects": true, "fsck": true, "gc": true, "var": true, "whatchanged": true,
		"check-ignore": true, "check-attr": true, "diff-tree": true, "diff-index": true, "diff-files": true, "hash-object": true,
		"symbolic-ref": true, "notes": true, "range-diff": true, "cherry": true, "annotate": true}
	// gitRewrites write work-tree files from history, another branch or a
	// patch the analysis does not read.
	gitRewrites = map[string]bool{"am": true, "merge": true, "rebase": true, "pull": true, "switch": true, "cherry-pick": true,
		"revert": true, "bisect": true, "read-tree": true, "checkout-index": true, "filter-branch": true, "filter-repo": true,
		"sparse-checkout": true, "stage": false, "submodule": true, "subtree": true, "merge-file": true, "mergetool": true, "difftool": true}
	// gitRewriteReads are the first words that make a gitRewrites
	// subcommand leave the work tree alone.
	gitRewriteReads = map[string][]string{"submodule": {"status", "summary"}, "bisect": {"log", "view", "visualize", "terms"},
		"sparse-checkout": {"list"}, "am": {"--show-current-patch"}}
	// gitRiskyConfig are -c settings that run commands or change what git
	// writes.
	gitRiskyConfig = []string{"alias.", "core.pager", "core.editor", "core.sshcommand", "core.fsmonitor", "core.hookspath",
		"core.worktree", "core.askpass", "diff.external", "sequence.editor", "filter.", "credential.", "gpg.", "pager.", "include.", "includeif."}
)

// git: the subcommands that change work-tree files write their paths
// (checkout, restore, rm, mv, clean, stash push -- PATHS, clone, worktree
// add, apply); those that rewrite it from history or a branch are Unknown
// and a write of the whole work tree; a subcommand the analysis does not
// know is Unknown (it may be an alias). -C DIR and --work-tree move where
// the paths are read from.
func (w *walker) git(rest []arg, st *state) {
	outer := st // where git starts, before -C moves it
	cmd, st, defs, ok := w.gitGlobals(rest, st)
	if !ok || len(cmd) == 0 {
		return
	}
	text := "git " + joinRaw(rest)
	if !cmd[0].ok {
		w.unknown(text, reasonDynamic)
		return
	}
	sub, args := cmd[0].lit, cmd[1:]
	switch {
	case w.job.gitPushEnv && (sub == "push" || sub == "send-pack"):
		w.unknown(text, "a GIT_ variable set by the command changes where or what git pushes")
	case w.job.gitEnv && !gitReads[sub]:
		// The tree it moves to is unknown: it may be the start directory's.
		w.treeRewrite(text, "GIT_DIR or GIT_WORK_TREE, set by the command, moves the work tree", &state{})
	case sub == "update-index":
		// --assume-unchanged and --skip-worktree hide later changes of the
		// paths from git itself, which the backstop asks what changed.
		w.unknown(text, "git update-index changes what git reports as changed (assume-unchanged, skip-worktree)")
	case gitReads[sub]:
		w.gitRead(text, sub, args, st)
	case gitRewrites[sub]:
		if len(args) > 0 && args[0].ok && slices.Contains(gitRewriteReads[sub], args[0].lit) {
			return
		}
		if sub == "switch" && !gitSwitchMoves(args) || sub == "subtree" && gitSubtreeKeepsTree(args) {
			return
		}
		w.treeRewrite(text, reasonHistory, st)
	case !w.gitWorkTree(text, sub, args, st):
		w.gitAlias(text, rest[:len(rest)-len(cmd)], sub, args, st, outer, defs)
	}
}

// gitGlobals reads git's own options before the subcommand: -C and
// --work-tree move the directory, -c alias.NAME=DEF is kept in defs, and
// any other setting that runs commands or moves what git writes is Unknown
// (ok false: nothing more is judged).
func (w *walker) gitGlobals(rest []arg, st *state) (cmd []arg, _ *state, defs map[string]string, ok bool) {
	opts, cmd := getopt.Parse(getopt.Git, rest)
	defs = map[string]string{}
	for _, o := range opts {
		switch o.Name {
		case "C", "work-tree":
			st = cd(st, o.Value)
		case "c", "config-env", "exec-path":
			if o.Name == "c" && w.gitConfigAlias(o, defs) {
				continue
			}
			k := strings.ToLower(o.Value.lit)
			for _, r := range gitRiskyConfig {
				if !o.Value.ok || strings.HasPrefix(k, r) || o.Name == "exec-path" {
					w.unknown("git "+joinRaw(rest), reasonOption+"-c "+o.Value.raw)
					return nil, st, nil, false
				}
			}
		}
	}
	return cmd, st, defs, true
}

// gitRead judges a subcommand that leaves the work tree alone, unless it
// is told to write a file (--output) or creates a repository (init).
func (w *walker) gitRead(text, sub string, args []arg, st *state) {
	for _, a := range args { // --output=FILE, or a prefix of it (git takes those)
		n, _, _ := strings.Cut(strings.TrimPrefix(a.lit, "--"), "=")
		if a.ok && strings.HasPrefix(a.lit, "--") && len(n) > 1 && (strings.HasPrefix("output", n) || n == "output-directory") {
			w.unknown(text, reasonOption+a.lit)
			return
		}
	}
	if sub == "init" {
		_, ops := getopt.Parse(getopt.GitInit, args)
		if len(ops) == 0 {
			ops = []arg{{lit: ".git", ok: true, raw: "git init"}}
		}
		w.write(ops[0], st, "")
	}
}

// gitWorkTree judges the subcommands that write work-tree paths the
// command line names, and reports whether sub was one.
func (w *walker) gitWorkTree(text, sub string, args []arg, st *state) bool {
	switch sub {
	case "checkout":
		w.gitCheckout(text, args, st)
	case "restore":
		o, ops := getopt.Parse(getopt.GitRestore, args)
		if getopt.Has(o, "S", "staged") && !getopt.Has(o, "W", "worktree") {
			return true
		}
		if f, ok := getopt.Value(o, "pathspec-from-file"); ok {
			w.unknown("git restore --pathspec-from-file="+f.raw, reasonFromFile)
		}
		w.writeAll(ops, st)
	case "rm":
		o, ops := getopt.Parse(getopt.GitRm, args)
		if !getopt.Has(o, "cached") {
			w.removeAll(ops, st)
		}
	case "mv":
		o, ops := getopt.Parse(getopt.Spec{}, args)
		w.copyLike("mv", o, ops, st)
	case "clean":
		o, ops := getopt.Parse(getopt.GitClean, args)
		if getopt.Has(o, "n", "dry-run") {
			return true
		}
		if len(ops) == 0 {
			ops = []arg{{lit: ".", ok: true, raw: "git clean"}}
		}
		w.removeAll(ops, st)
	case "reset":
		o, _ := getopt.Parse(getopt.Spec{}, args)
		if getopt.Has(o, "hard", "merge", "keep") {
			w.treeRewrite(text, reasonHistory, st)
		}
	case "stash":
		w.gitStash(text, args, st)
	case "clone":
		w.gitClone(text, args, st)
	case "worktree":
		if len(args) > 0 && args[0].ok && (args[0].lit == "add" || args[0].lit == "remove" || args[0].lit == "move") {
			_, ops := getopt.Parse(getopt.GitWorktree, args[1:])
			if args[0].lit == "add" && len(ops) > 1 {
				ops = ops[:1]
			}
			w.writeAll(ops, st)
		}
	case "apply":
		w.gitApply(text, args, st)
	case "config":
		for _, a := range args {
			if a.ok && (a.lit == "-l" || a.lit == "--list" || a.lit == "--get" || a.lit == "--get-all" || a.lit == "get" || a.lit == "list" || a.lit == "--get-regexp") {
				return true
			}
		}
		w.unknown(text, "git config changes what later git commands run and write")
	default:
		return false
	}
	return true
}

// gitClone writes the directory it clones into: the second operand, or
// the repository's name (NAME.git for --bare and --mirror).
func (w *walker) gitClone(text string, args []arg, st *state) {
	o, ops := getopt.Parse(getopt.GitClone, args)
	if getopt.Has(o, "bare", "mirror") && len(ops) < 2 {
		ops = append(ops, arg{lit: strings.TrimSuffix(path.Base(ops[0].lit), ".git") + ".git", ok: ops[0].ok, raw: ops[0].raw})
	}
	switch {
	case len(ops) > 1:
		w.write(ops[1], st, "")
	case len(ops) == 1 && ops[0].ok:
		name := strings.TrimSuffix(path.Base(strings.TrimRight(ops[0].lit, "/")), ".git")
		name = name[strings.LastIndexAny(name, ":")+1:]
		w.write(arg{lit: name, ok: true, raw: ops[0].raw}, st, "")
	case len(ops) == 1:
		w.unknown(text, reasonDynamic)
	}
}

// gitCheckout: checkout [TREE] -- PATHS and checkout TREE PATHS write the
// paths; checkout BRANCH (or -b NEW START, or -f) rewrites the whole tree;
// checkout -b NEW (from HEAD) changes no file.
func (w *walker) gitCheckout(text string, args []arg, st *state) {
	for i, a := range args {
		if a.ok && a.lit == "--" {
			w.writeAll(args[i+1:], st)
			return
		}
	}
	o, ops := getopt.Parse(getopt.GitCheckout, args)
	if f, ok := getopt.Value(o, "pathspec-from-file"); ok {
		w.unknown("git checkout --pathspec-from-file="+f.raw, reasonFromFile)
		return
	}
	switch {
	case len(ops) == 0 && getopt.Has(o, "f", "force"):
		w.treeRewrite(text, reasonHistory, st) // checkout -f: HEAD's files over the tree's
	case len(ops) == 0:
	case len(ops) == 1: // a branch, a commit, or a new branch's start point
		w.treeRewrite(text, reasonHistory, st)
	default:
		w.writeAll(ops[1:], st)
	}
}

// gitStash: list, show, drop, clear, create and store leave the tree alone;
// push -- PATHS writes the paths; the rest (push, save, pop, apply, branch)
// rewrite the whole tree.
func (w *walker) gitStash(text string, args []arg, st *state) {
	if len(args) > 0 && args[0].ok && slices.Contains([]string{"list", "show", "drop", "clear", "create", "store"}, args[0].lit) {
		return
	}
	for i, a := range args {
		if a.ok && a.lit == "--" && i+1 < len(args) {
			w.writeAll(args[i+1:], st)
			return
		}
	}
	w.treeRewrite(text, reasonHistory, st)
}

// gitSwitchMoves reports whether git switch ARGS changes the work tree: all
// but a new branch at HEAD (-c NEW, -C NEW) do; --orphan empties it.
func gitSwitchMoves(args []arg) bool {
	o, ops := getopt.Parse(getopt.GitSwitch, args)
	return len(ops) > 0 || !getopt.Has(o, "c", "C", "create", "force-create")
}

// gitSubtreeKeepsTree reports whether git subtree args leave the work tree
// alone: split and push make commits of their own and send them, without
// --rejoin (which merges the split back into HEAD); add, merge and pull
// write the subtree's files.
func gitSubtreeKeepsTree(args []arg) bool {
	if len(args) == 0 || !args[0].ok || args[0].lit != "split" && args[0].lit != "push" {
		return false
	}
	for _, a := range args[1:] {
		// git subtree takes an option's unambiguous prefix (--rej).
		if !a.ok || len(a.lit) > 3 && strings.HasPrefix("--rejoin", a.lit) {
			return false
		}
	}
	return true
}

// treeRewrite records a git command that rewrites work-tree files from
// history, another branch, a stash or a patch: an Unknown (which files is
// not known) and a write of the whole work tree around the directory it
// runs in (of the start directory's when that one is known only at run
// time: it may be the same).
func (w *walker) treeRewrite(text, reason string, st *state) {
	w.unknown(text, reason)
	p := "."
	if st.known && st.dir != "" {
		p = st.dir
	}
	w.job.res.Writes = append(w.job.res.Writes, Write{Path: p, WorkTree: true})
}
