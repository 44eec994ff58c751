// Package guard is what agent_authority keeps from an agent: the paths of
// tausik's own guard in a project (its configuration tiers, state, keys,
// baseline, team gates and hook wiring) and which paths a write, a command
// line or a call whose writes cannot be known would touch among them.
package guard

import (
	"path/filepath"
	"strings"

	"github.com/tausik/tausik/engine/baseline"
	"github.com/tausik/tausik/engine/internal/realpath"

	"github.com/tausik/tausik/engine/config"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/hosts/hostinit"
)

// guardPath is one path of tausik's own guard: writing it (or removing a
// directory above it) changes what judges the agent.
type guardPath struct {
	path   string // absolute, symlinks resolved
	dir    bool   // everything below path belongs to it too
	reason string
	// leaf: only the path itself; the directories above it are not the
	// guard (the committed tausik/ holding the baseline shares its name
	// with the program, which every tausik command line names).
	leaf bool
}

// Guard is the guard of one project.
type Guard struct {
	paths []guardPath
	root  string
	home  string
}

// New is the guard of the project at root (absolute, symlinks resolved)
// for the user whose home directory is home ("" guards none there), cfg
// naming the tiers' files.
func New(root, home string, cfg config.Paths) *Guard {
	g := &Guard{paths: guardPaths(root, home, cfg), root: root}
	if home != "" {
		g.home = realpath.Resolve(filepath.Clean(home))
	}
	return g
}

// Call is what the guard reads of a tool call besides the paths it
// writes: its simple commands and their working directory, the command or
// patch text, and the parts whose writes cannot be known before it runs.
type Call struct {
	Commands []facts.ToolCommand
	CWD      string
	Command  string
	Unknown  []facts.UnknownWrite
}

// guardPaths lists the guard of a project at root: the user's ~/.tausik,
// the user and managed tiers wherever their variables point, the project's
// .tausik state, its baseline, its configuration tier and team gates, and
// every host's hook wiring that init writes.
func guardPaths(root, home string, cfg config.Paths) []guardPath {
	var out []guardPath
	add := func(p string, dir bool, reason string) {
		if p == "" {
			return
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		out = append(out, guardPath{path: realpath.Resolve(filepath.Clean(p)), dir: dir, reason: reason})
	}
	add(cfg.User, false, "the user configuration tier")
	add(cfg.Managed, false, "the managed configuration tier")
	if home != "" {
		add(filepath.Join(home, config.StateDir), true, "the user's tausik directory (user tier, keys)")
	}
	add(filepath.Join(root, config.StateDir), true, "the project's tausik state (decision log, keys)")
	// The committed guard under tausik/: the directory shares its name with
	// the program every tausik command line names, so only these paths are
	// the guard, not tausik/ itself (leaf).
	add(filepath.Join(root, filepath.FromSlash(baseline.Path)), false, "the baseline (a person records it: docs/baseline.md)")
	out[len(out)-1].leaf = true
	add(cfg.Project, false, "the project configuration tier")
	out[len(out)-1].leaf = true
	add(filepath.Join(root, "tausik", "policies"), true, "the project's team gates")
	out[len(out)-1].leaf = true
	for _, w := range hostinit.WiringFiles() {
		add(filepath.Join(root, filepath.FromSlash(w.Rel)), false, "the hook wiring of "+w.Host)
	}
	return out
}

// Targets lists the paths (absolute, or relative to the root) that hit the
// guard, and those call (nil: none) names on a command line or may hide.
// A target hits a guard path when it is that
// path, lies below a guarded directory, or is a directory above a guard
// path: a write into the project root or the home directory (tar x, cp -r
// SRC/. ., a checkout of another commit) may land on the guard below it.
func (g *Guard) Targets(paths []string, call *Call) []facts.ProtectedTarget {
	if g == nil || len(g.paths) == 0 {
		return nil
	}
	var out []facts.ProtectedTarget
	if call != nil {
		out = append(g.mentionedTargets(call), g.hiddenTargets(call)...)
	}
	seen := map[string]bool{}
	for _, p := range paths {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(g.root, abs)
		}
		abs = realpath.Resolve(filepath.Clean(abs))
		if seen[abs] {
			continue
		}
		seen[abs] = true
		if hit, ok := g.hit(abs, true); ok {
			out = append(out, facts.ProtectedTarget{Path: p, Reason: hit.reason})
		}
	}
	return out
}

// hit is the guard path abs hits: that path, one below a guarded
// directory, or a directory above a guard path. A leaf guard path's
// directories, the project root and the home directory are hit only when
// written (checkout, restore or rm of tausik/ rewrites the baseline), not
// when named: every tausik command line names tausik, and many name ".".
// A glob (tausik/*.json, .taus?k) hits what it may match.
func (g *Guard) hit(abs string, written bool) (guardPath, bool) {
	for _, p := range g.paths {
		switch {
		case abs == p.path, p.dir && under(abs, p.path), globBelow(abs, p):
			return p, true
		case (under(p.path, abs) || globAbove(abs, p.path)) && (written || abs != g.root && abs != g.home && !p.leaf):
			p.reason = "a directory holding " + p.reason
			return p, true
		}
	}
	return guardPath{}, false
}

// under reports whether p lies strictly below dir.
func under(p, dir string) bool {
	return strings.HasPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}
