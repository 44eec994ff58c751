// Package runners holds the fact producers, one per source. A runner fills one
// namespace of the facts document; it never decides anything. A runner that
// cannot look returns a namespace with status unavailable or error and a
// reason, never a partial namespace that reads as complete.
package runners

import (
	"context"
	"sort"
	"sync"

	"github.com/tausik/tausik/facts"
)

// Runner gathers one namespace of facts.
type Runner interface {
	// Namespace is the key the runner's facts live under in the document.
	Namespace() string
	// Gather observes the project for s. It must not panic and must not
	// return a namespace with status ok unless every fact in it was read.
	Gather(ctx context.Context, s *Scope) facts.Namespace
}

// Configurable is a runner whose facts follow the params of the gate
// reading them (which files it scans, which findings it lists). Options
// reads the options it needs from a gate's resolved params; the engine
// hands the first reading gate's options to Gather in Scope.Options, and
// judges a later gate on those facts only when its options are equal
// (reflect.DeepEqual).
type Configurable interface {
	Runner
	Options(params map[string]any) any
}

// Scope is what a runner is asked to look at. It is shared by the runners of
// one evaluation, which may run concurrently; the repo listing is computed
// once, on first use.
type Scope struct {
	// Root is the absolute, symlink-resolved project root.
	Root string
	// Request is the resolved request: trigger, task and, when Explicit, the
	// requested files.
	Request facts.Request
	// Work is what the engine knows about the request's workflow that the
	// workflow runners (task, session, verify) cannot look up themselves.
	Work WorkContext
	// Globs holds, for each namespace whose files gates name by glob
	// (content, documents), the union of the globs of the gates being
	// evaluated: its runner reads only the files in scope that match one.
	Globs map[string][]string
	// ToolGlobs holds, for such a namespace, the globs of the gates that
	// judge a tool call (they read "tool"): the files they name (a lockfile,
	// a config) are what the call is judged against, not what it writes, so
	// while a call is judged they are read from the repository whatever
	// files the call writes.
	ToolGlobs map[string][]string
	// MaxBytes holds, for such a namespace, the largest size cap those
	// gates ask for; 0 or absent is the runner's default.
	MaxBytes map[string]int64
	// Options holds, for each namespace whose runner is Configurable, the
	// options that runner read from the params of the gate it gathers for.
	// The engine fills it; the runner contract knows no gate.
	Options map[string]any
	// Tool is the agent tool call a hook judges (the tool namespace), nil
	// at a trigger that judges none.
	Tool *facts.Tool
	// After holds, for each repo-relative path that call writes and whose
	// text after it the call shows, that text, or why it cannot be known:
	// the files runner describes such a path as it would be after the call.
	After map[string]AfterText

	listOnce  sync.Once
	listing   *Listing
	repoFiles []string
	listErr   error

	memo memo // see Scope.Memo
}

// AfterText is a path's text after the tool call being judged, or, when Err
// is set, why it cannot be known (an edit that cannot apply, a text over
// the size bound): a runner reading it then fails closed.
type AfterText struct {
	Text string
	Err  string
}

// NewScope returns a scope rooted at root for req.
func NewScope(root string, req facts.Request) *Scope {
	return &Scope{Root: root, Request: req}
}

// RepoFiles lists the project's files: tracked and untracked-not-ignored files
// when the root is a git work tree, else a walk that skips VCS, virtualenv,
// cache and node_modules directories. Paths are repo-relative, "/"-separated,
// sorted.
func (s *Scope) RepoFiles(ctx context.Context) ([]string, error) {
	s.listOnce.Do(func() {
		if s.listing != nil {
			s.repoFiles, s.listErr = s.listing.wait(ctx)
			return
		}
		s.repoFiles, s.listErr = ListFiles(ctx, s.Root)
	})
	return s.repoFiles, s.listErr
}

// UseListing makes l, a listing of this scope's root taken beforehand,
// the scope's RepoFiles; a listing of another root, or nil, is ignored.
func (s *Scope) UseListing(l *Listing) {
	if l != nil && l.root == s.Root {
		s.listing = l
	}
}

// ScopedFiles returns the request's files when it named any, else RepoFiles.
func (s *Scope) ScopedFiles(ctx context.Context) ([]string, error) {
	if s.Request.Explicit {
		return s.Request.Files, nil
	}
	return s.RepoFiles(ctx)
}

// Registry maps namespace names to runners.
type Registry struct {
	runners map[string]Runner
}

// NewRegistry returns a registry holding rs; a later runner for the same
// namespace replaces an earlier one.
func NewRegistry(rs ...Runner) *Registry {
	r := &Registry{runners: map[string]Runner{}}
	for _, x := range rs {
		r.runners[x.Namespace()] = x
	}
	return r
}

// Get returns the runner for namespace ns.
func (r *Registry) Get(ns string) (Runner, bool) {
	x, ok := r.runners[ns]
	return x, ok
}

// Namespaces lists the registered namespaces, sorted.
func (r *Registry) Namespaces() []string {
	out := make([]string, 0, len(r.runners))
	for ns := range r.runners {
		out = append(out, ns)
	}
	sort.Strings(out)
	return out
}

// With returns a new registry holding r's runners and rs; a runner in rs
// replaces r's runner of the same namespace. r itself is not changed, so a
// registry shared by concurrent evaluations stays as it was.
func (r *Registry) With(rs ...Runner) *Registry {
	out := &Registry{runners: make(map[string]Runner, len(r.runners)+len(rs))}
	for ns, x := range r.runners {
		out.runners[ns] = x
	}
	for _, x := range rs {
		out.runners[x.Namespace()] = x
	}
	return out
}
