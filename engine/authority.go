package engine

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tausik/tausik/engine/baseline"

	"github.com/tausik/tausik/engine/config"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/hosts/hostinit"
)

// GateAgentAuthority is the built-in gate that keeps an agent from changing
// the guard it runs under: its configuration, state, keys, hook wiring,
// task scopes.
const GateAgentAuthority = "agent_authority"

// TriggerPreWrite is the trigger of a tool call about to write.
const TriggerPreWrite = "pre-write"

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
		out = append(out, guardPath{path: resolvePath(filepath.Clean(p), 0), dir: dir, reason: reason})
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

// protectedTargets lists the paths of req (its files and its tool call's
// targets) that hit the guard. A target hits a guard path when it is that
// path, lies below a guarded directory, or is a directory above a guard
// path other than the project root or the home directory themselves (whose
// removal scope_write and the backstop judge).
func (e *Engine) protectedTargets(req Request) []facts.ProtectedTarget {
	if req.Trigger != TriggerPreWrite || len(e.guard) == 0 {
		return nil
	}
	paths := slices.Clone(req.Files)
	if req.Tool != nil {
		paths = append(paths, req.Tool.Writes...)
	}
	var out []facts.ProtectedTarget
	if req.Tool != nil {
		out = append(e.mentionedTargets(req.Tool), e.hiddenTargets(req.Tool)...)
	}
	seen := map[string]bool{}
	for _, p := range paths {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(e.root, abs)
		}
		abs = resolvePath(filepath.Clean(abs), 0)
		if seen[abs] {
			continue
		}
		seen[abs] = true
		if g, ok := e.guardHit(abs, true); ok {
			out = append(out, facts.ProtectedTarget{Path: p, Reason: g.reason})
		}
	}
	return out
}

// guardOf is the guard path a path named on a command line hits.
func (e *Engine) guardOf(abs string) (guardPath, bool) { return e.guardHit(abs, false) }

// guardHit is the guard path abs hits: that path, one below a guarded
// directory, or a directory above a guard path. A leaf guard path's
// directories are hit only when written (checkout, restore or rm of
// tausik/ rewrites the baseline), not when named: every tausik command line
// names tausik. A glob (tausik/*.json, .taus?k) hits what it may match.
func (e *Engine) guardHit(abs string, written bool) (guardPath, bool) {
	for _, g := range e.guard {
		switch {
		case abs == g.path, g.dir && under(abs, g.path), globBelow(abs, g):
			return g, true
		case (under(g.path, abs) || globAbove(abs, g.path)) && abs != e.root && abs != e.home && (written || !g.leaf):
			g.reason = "a directory holding " + g.reason
			return g, true
		}
	}
	return guardPath{}, false
}

// under reports whether p lies strictly below dir.
func under(p, dir string) bool {
	return strings.HasPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// JudgeCommand judges a tausik command line (argv[0] is the program) that a
// requester asked the CLI to run, before it changes anything: the
// agent_authority gate refuses one that changes the guard when the
// requester is an agent. The decision is logged either way, so every change
// of the guard is on record with who asked.
func (e *Engine) JudgeCommand(ctx context.Context, argv []string, requester string) (*Decision, error) {
	cmd := facts.ToolCommand{Argv: slices.Clone(argv), Dynamic: make([]bool, len(argv))}
	tc := &ToolCall{Host: "cli", Tool: "tausik", Kind: KindOther, Command: strings.Join(argv, " "), Commands: []facts.ToolCommand{cmd}}
	return e.Evaluate(ctx, Request{Trigger: TriggerPreWrite, Gates: []string{GateAgentAuthority}, Requester: requester, Tool: tc})
}

// activeSlugs are the slugs of the active tasks, sorted; nil without a store
// or when it cannot be read (the task runner reports that to the gates).
func (e *Engine) activeSlugs(ctx context.Context) []string {
	if e.store == nil {
		return nil
	}
	ts, err := e.store.ActiveTasks(ctx)
	if err != nil {
		return nil
	}
	var out []string
	for _, t := range ts {
		out = append(out, t.Slug)
	}
	slices.Sort(out)
	return out
}
