package guard

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/tausik/tausik/engine/internal/realpath"
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
func (g *Guard) mentionedTargets(c *Call) []facts.ProtectedTarget {
	var out []facts.ProtectedTarget
	for _, cmd := range c.Commands {
		for _, w := range guardWords(cmd) {
			abs := w
			if w == "~" || strings.HasPrefix(w, "~/") {
				if g.home == "" {
					continue
				}
				abs = filepath.Join(g.home, strings.TrimPrefix(w, "~"))
			}
			if !filepath.IsAbs(abs) {
				if c.CWD == "" {
					continue
				}
				abs = filepath.Join(c.CWD, abs)
			}
			abs = realpath.Resolve(filepath.Clean(abs))
			if hit, ok := g.hit(abs, false); ok {
				out = append(out, facts.ProtectedTarget{Path: w,
					Reason: hit.reason + ", named on the command line of " + filepath.Base(cmd.Argv[0]) + ", which may change it"})
			}
		}
	}
	return out
}

// names are the words a command text names the guard by: the first
// element of each guard path inside the project (tausik, .tausik, .claude…),
// the base name of each one outside it (~/.tausik, the managed tier's file).
func (g *Guard) names() []string {
	var out []string
	for _, p := range g.paths {
		name := filepath.Base(p.path)
		if rel, err := filepath.Rel(g.root, p.path); err == nil && !strings.HasPrefix(rel, "..") {
			name, _, _ = strings.Cut(filepath.ToSlash(rel), "/")
		}
		if name != "" && name != "." && !slices.Contains(out, name) {
			out = append(out, strings.ToLower(name))
		}
	}
	return out
}

// hiddenTargets: when the analysis cannot know what part of c writes (an
// interpreter's inline code, an unmodelled option, a git alias) and c's
// text names the guard anywhere, that part may be writing the guard, and is
// a protected target named by its text.
func (g *Guard) hiddenTargets(c *Call) []facts.ProtectedTarget {
	if len(c.Unknown) == 0 {
		return nil
	}
	text := strings.ToLower(c.Command)
	for _, u := range c.Unknown {
		text += "\n" + strings.ToLower(u.Text+" "+u.Reason)
	}
	var named string
	for _, n := range g.names() {
		if strings.Contains(text, n) {
			named = n
			break
		}
	}
	if named == "" {
		return nil
	}
	var out []facts.ProtectedTarget
	for _, u := range c.Unknown {
		out = append(out, facts.ProtectedTarget{Path: u.Text,
			Reason: "a part of a call that names " + named + " and whose writes cannot be known before it runs (" + u.Reason + ")"})
	}
	return out
}
