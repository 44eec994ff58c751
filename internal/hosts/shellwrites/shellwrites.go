// Package shellwrites finds the paths a shell command or a patch would write,
// without running anything: the command is parsed with a real shell parser
// (mvdan.cc/sh/v3/syntax) and its syntax tree walked, so a write refused
// through an editor tool is not let through through the shell.
//
// What it sees: redirections, the file operands and output options of the
// commands that write files (cp, mv, ln, install, tee, rm, touch, mkdir,
// truncate, chmod, chown, sort -o, uniq, split, csplit, mktemp, dd, sed -i
// and sed's w commands, perl -i, tar, unzip, cpio, curl, wget, rsync, patch,
// git's commands that change the work tree), through && || ; | & subshells,
// blocks, loops, functions, command substitutions and the wrappers sudo,
// doas, env, xargs, nohup, time, command, exec, nice, timeout, stdbuf and
// ionice; cd and pushd move the directory later relative paths are read
// from (a move that may not happen, in a branch, a loop or after ||, leaves
// it known only at run time), and each command carries the directory it
// starts in; sh -c strings and shell here-documents are parsed in turn when
// they are literal.
//
// What it cannot show is reported as Unknown, never dropped: a target built
// at run time, eval, aliases, an interpreter given its program inline or on
// its standard input, an editor given commands, an option of a known command
// the analysis does not model, a git command that rewrites the work tree
// from history, an archive's members, a command that does not parse, and a
// command past the analysis' bounds (words, brace expansion, nesting, time).
// A write whose files are unknown but whose place is not stays a write of
// that place too: an archive extracted, a tree copied or found and deleted
// write their directory, and a git command that rewrites the work tree from
// history, a stash or an unread patch writes the whole work tree
// (Write.WorkTree), so a guard below them is seen as written.
//
// Brace expansion lives in the subpackage braces, and the readers of sed
// scripts and diffs in scripts.
// What stays out of reach on purpose is a program that writes files itself
// (make, a script, a compiler, a test run): its writes are not in the
// command line, and are judged after it ran.
package shellwrites

import (
	"fmt"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// Write is one path a command would write, as the command names it: absolute,
// or relative to the directory the command starts in.
type Write struct {
	Path string `json:"path"`
	// Into, when set, is the name the write lands under if Path turns out to
	// be an existing directory (cp a.py dir: dir/a.py).
	Into string `json:"into,omitempty"`
	// WorkTree: the write may land anywhere in the git work tree holding
	// Path (a checkout of another commit, a reset, a merge, a stash, a
	// patch read only when it runs), so it is a write of that work tree's
	// top directory, which the caller finds on disk.
	WorkTree bool `json:"work_tree,omitempty"`
	// Remove: the write removes Path (rm, rmdir, unlink, find -delete, git
	// rm, git clean), which never follows a symbolic link below it.
	Remove bool `json:"remove,omitempty"`
}

// Unknown is a write whose target cannot be known before the command runs.
type Unknown struct {
	Text   string `json:"text"`   // the part of the command, as written
	Reason string `json:"reason"` // why it cannot be known
	// Runs says the commands this part runs are not known either: eval, an
	// alias definition, a shell given a command string built at run time or
	// its program through a pipe, a program named by a variable fed its
	// program on standard input. Not only its writes but what it executes
	// is out of sight.
	Runs bool `json:"runs,omitempty"`
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
	// Redirects are the redirections that apply to the command (its own and
	// those of the blocks, loops and subshells around it), here-documents
	// and here-strings aside.
	Redirects []Redirect `json:"redirects,omitempty"`
	// Heredocs are the texts of the here-documents and here-strings fed to
	// the command, as written when they are not literal.
	Heredocs []string `json:"heredocs,omitempty"`
	// Dir is the directory the command starts in: relative to the one the
	// whole command starts in ("" is that one), absolute, or under ~.
	// DirUnknown: it is known only at run time (cd "$D", popd, a cd in a
	// loop or a branch that may not run), and Dir means nothing.
	Dir        string `json:"dir,omitempty"`
	DirUnknown bool   `json:"dir_unknown,omitempty"`
}

// Redirect is one redirection: its operator with the descriptor it names
// ("2>", ">>", "<", ">&") and its target word, "" when that is known only
// at run time.
type Redirect struct {
	Op     string `json:"op"`
	Target string `json:"target"`
}

// Result is what a command would write, and the simple commands it would run.
type Result struct {
	Writes   []Write   `json:"writes"`
	Unknown  []Unknown `json:"unknown"`
	Commands []Command `json:"commands"`
}

// Options are what the analysis may read besides the command.
type Options struct {
	// Dir is the absolute directory the command starts in: a patch or sed
	// script the command names is read relative to it.
	Dir string
	// ReadFile reads such a file; nil reads nothing, and what the file would
	// have shown is Unknown.
	ReadFile func(name string) ([]byte, error)
	// GitAlias returns the definition of git alias name as git run in dir
	// sees it; nil resolves none, and an unmodelled git subcommand is only
	// Unknown.
	GitAlias func(dir, name string) (string, bool)
	// CDPath: the environment the command starts in sets CDPATH, so cd NAME
	// may go elsewhere than ./NAME.
	CDPath bool
	now    func() time.Time // the clock of the deadline; tests set it
}

// The bounds of one analysis. Past any of them the whole command is one
// Unknown naming the bound: a command too big to read is not let through.
const (
	maxWords        = 4096                   // words after brace expansion, in the whole command
	maxBraceWords   = 1024                   // words one brace expansion may yield
	maxNesting      = 200                    // open brackets, quotes and substitutions at once
	maxCommandBytes = 1 << 20                // the command's text
	deadline        = 200 * time.Millisecond // the analysis' own time
	maxDepth        = 8                      // sh -c strings within sh -c strings
)

// Reasons for Unknown, shared by the walker and the command table.
const (
	reasonDynamic  = "the target is built from a variable or a command substitution, known only at run time"
	reasonDir      = "it is relative to a directory known only at run time"
	reasonEval     = "eval runs a string built at run time"
	reasonAlias    = "an alias may stand for any command"
	reasonXargs    = "xargs appends arguments read from its input"
	reasonShellC   = "the shell is given a command string built at run time"
	reasonInline   = "an interpreter given inline code can open any file"
	reasonStdin    = "an interpreter given its program on standard input can open any file"
	reasonEditor   = "an editor run with commands can write any file"
	reasonParse    = "the command does not parse as a shell command"
	reasonTooDeep  = "shell commands nested too deeply to follow"
	reasonFromFile = "the paths come from a file read at run time"
	reasonOption   = "the analysis does not model the option "
	reasonHistory  = "git rewrites work-tree files from history or another branch"
	reasonArchive  = "the files written are named inside the archive"
	reasonUnread   = "the patch or script it reads could not be read before it runs"
	reasonWords    = "the command expands to more than 4096 words"
	reasonBrace    = "a brace expansion yields more than 1024 words"
	reasonNesting  = "the command nests more than 200 levels deep"
	reasonTime     = "the analysis ran past its 200 ms deadline"
	reasonSize     = "the command is longer than 1 MiB"
	reasonFailed   = "the analysis failed: "
)

// bound is raised (as a panic, caught by the entry points) when the analysis
// passes one of its bounds.
type bound string

// job is one analysis: what it found so far and what it has spent.
type job struct {
	res   Result
	opts  Options
	wraps []string // the wrappers around the command being judged
	words int
	steps int
	until time.Time
	// gitEnv and homeSet: the command sets GIT_DIR or GIT_WORK_TREE (git's
	// work tree moves), or HOME (~ moves), somewhere.
	gitEnv, homeSet bool
	// gitPushEnv: the command sets a variable that changes where or what
	// git pushes (GIT_CONFIG_*, GIT_DIR, GIT_SSH_COMMAND…), somewhere.
	gitPushEnv bool
	gitAliases int // git aliases resolved so far
	// cdPath: the command or its environment sets CDPATH, which moves where
	// cd NAME goes.
	cdPath bool
	// funcs are the shell functions the command defines, by name; calling
	// those being called now (both nil until the first definition).
	funcs   map[string]*syntax.Stmt
	calling map[string]bool
}

// gitPushVars, with every GIT_CONFIG* variable, change where or what a push
// sends: another repository, a redirecting setting (HOME and
// XDG_CONFIG_HOME move the user's git config), another transport.
var gitPushVars = map[string]bool{"HOME": true, "XDG_CONFIG_HOME": true, "GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_NAMESPACE": true, "GIT_EXEC_PATH": true,
	"GIT_SSH": true, "GIT_SSH_COMMAND": true, "GIT_PROXY_COMMAND": true, "GIT_ALLOW_PROTOCOL": true, "GIT_PROTOCOL_FROM_USER": true}

// setVar notes a variable the command sets that moves where writes land.
func (j *job) setVar(name string) {
	if gitPushVars[name] || strings.HasPrefix(name, "GIT_CONFIG") {
		j.gitPushEnv = true
	}
	switch name {
	case "GIT_DIR", "GIT_WORK_TREE":
		j.gitEnv = true
	case "HOME":
		j.homeSet = true
	case "CDPATH":
		j.cdPath = true
	}
}

func newJob(o Options) *job {
	if o.now == nil {
		o.now = time.Now
	}
	return &job{opts: o, until: o.now().Add(deadline), cdPath: o.CDPath}
}

// step counts one unit of work and checks the deadline every so often.
func (j *job) step() {
	j.steps++
	if j.steps&63 == 0 && j.opts.now().After(j.until) {
		panic(bound(reasonTime))
	}
}

// spend counts n words of the command after brace expansion.
func (j *job) spend(n int) {
	j.words += n
	if j.words > maxWords {
		panic(bound(reasonWords))
	}
	j.step()
}

// finish turns a bound (or any failure) into a Result of one Unknown, so the
// analysis never panics and never lets a command it could not finish through.
func (j *job) finish(command string, r *Result) {
	x := recover()
	if x == nil {
		return
	}
	reason, ok := x.(bound)
	if !ok {
		reason = bound(reasonFailed + fmt.Sprint(x))
	}
	*r = Result{Writes: []Write{}, Unknown: []Unknown{{Text: clip(command), Reason: string(reason)}}, Commands: []Command{}}
}

// Shell returns the paths command would write, parsed as bash. A command
// that does not parse is one Unknown: it is not let through as harmless.
func Shell(command string) Result { return ShellIn(command, Options{}) }

// ShellIn is Shell with the files the command names readable through o.
func ShellIn(command string, o Options) (r Result) {
	j := newJob(o)
	defer j.finish(command, &r)
	if len(command) > maxCommandBytes {
		panic(bound(reasonSize))
	}
	if nesting(command) > maxNesting {
		panic(bound(reasonNesting))
	}
	w := &walker{job: j}
	w.parse(command, &state{known: true})
	return j.res.clean()
}

// Argv returns the paths an argv (a command run without a shell, such as
// Codex's ["bash", "-lc", "…"]) would write.
func Argv(argv []string) Result { return ArgvIn(argv, Options{}) }

// ArgvIn is Argv with the files the command names readable through o.
func ArgvIn(argv []string, o Options) (r Result) {
	j := newJob(o)
	defer j.finish(strings.Join(argv, " "), &r)
	j.spend(len(argv))
	w := &walker{job: j}
	args := make([]arg, len(argv))
	for i, a := range argv {
		args[i] = arg{lit: a, ok: true, raw: a}
	}
	w.run(args, &state{known: true})
	return j.res.clean()
}

// nesting is the most brackets, braces and substitutions open at once in s,
// counted without regard to quotes (a quoted bracket only makes it larger):
// the parser recurses once per level.
func nesting(s string) int {
	depth, most := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{', '[':
			depth++
			most = max(most, depth)
		case ')', '}', ']':
			depth = max(depth-1, 0)
		}
	}
	return most
}

func clip(text string) string {
	if len(text) > 200 {
		return text[:200] + "…"
	}
	return text
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
