package engine

import (
	"path/filepath"
	"strings"

	"github.com/tausik/tausik/engine/hostinit"
	"github.com/tausik/tausik/facts"
)

// readOnlyPrograms read the files they are given and change none, so naming
// tausik's state to them is no threat to the guard. Every other program
// given a guard path on its command line (sqlite3 .tausik/tausik.db, a
// script given ~/.tausik/config.json) may change it, and no parser can show
// it will not.
var readOnlyPrograms = map[string]bool{
	"cat": true, "less": true, "more": true, "head": true, "tail": true, "ls": true, "stat": true,
	"file": true, "wc": true, "grep": true, "egrep": true, "fgrep": true, "rg": true, "diff": true,
	"cmp": true, "sha256sum": true, "sha1sum": true, "md5sum": true, "b2sum": true, "od": true,
	"xxd": true, "hexdump": true, "strings": true, "realpath": true, "readlink": true, "du": true,
	"test": true, "[": true, "echo": true, "printf": true, "basename": true, "dirname": true, "jq": true,
}

// guardHints are the text every guard path's spelling on a command line
// holds: tausik's directories and the base names of the hook wiring init
// writes. A word without any is not a guard path, so a shell call that
// names none needs no engine to judge it.
func guardHints() []string {
	hints := []string{"tausik"}
	for _, w := range hostinit.WiringFiles() {
		hints = append(hints, filepath.Base(filepath.FromSlash(w.Rel)))
	}
	return hints
}

var wiringHints = guardHints()

// MentionsGuard reports whether a command of cmds, run by a program that
// may write, names on its command line something that could be tausik's
// guard: a word holding one of the guard's hints or one of extra (the base
// names of the files $TAUSIK_USER_CONFIG and $TAUSIK_MANAGED_CONFIG name).
// It is the cheap test that decides whether a shell call that writes
// nothing visible is judged at all; protectedTargets then resolves each
// word against the guard itself.
func MentionsGuard(cmds []facts.ToolCommand, extra ...string) bool {
	for _, c := range cmds {
		for _, w := range guardWords(c) {
			for _, h := range append(wiringHints, extra...) {
				if h != "" && strings.Contains(w, h) {
					return true
				}
			}
		}
	}
	return false
}

// guardWords are the literal words of c that could name a file: the
// arguments of a program that is not read-only, an option's value
// (--db=.tausik/x) included. A dynamic program is not read-only.
func guardWords(c facts.ToolCommand) []string {
	if len(c.Argv) == 0 {
		return nil
	}
	if (len(c.Dynamic) == 0 || !c.Dynamic[0]) && readOnlyPrograms[filepath.Base(c.Argv[0])] {
		return nil
	}
	var out []string
	for i, w := range c.Argv {
		if i > 0 && i < len(c.Dynamic) && c.Dynamic[i] {
			continue
		}
		if strings.HasPrefix(w, "-") {
			_, val, ok := strings.Cut(w, "=")
			if !ok {
				continue
			}
			w = val
		}
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

// mentionedTargets are the guard paths the commands of c name on their
// command lines, read from c's directory, as protected targets.
func (e *Engine) mentionedTargets(c *ToolCall) []facts.ProtectedTarget {
	var out []facts.ProtectedTarget
	for _, cmd := range c.Commands {
		for _, w := range guardWords(cmd) {
			abs := w
			if w == "~" || strings.HasPrefix(w, "~/") {
				if e.home == "" {
					continue
				}
				abs = filepath.Join(e.home, strings.TrimPrefix(w, "~"))
			}
			if !filepath.IsAbs(abs) {
				if c.CWD == "" {
					continue
				}
				abs = filepath.Join(c.CWD, abs)
			}
			abs = resolvePath(filepath.Clean(abs), 0)
			if g, ok := e.guardOf(abs); ok {
				out = append(out, facts.ProtectedTarget{Path: w,
					Reason: g.reason + ", named on the command line of " + filepath.Base(cmd.Argv[0]) + ", which may change it"})
			}
		}
	}
	return out
}
