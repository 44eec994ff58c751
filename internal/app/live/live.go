// Package live keeps a long-lived process — `tausik mcp` — answering from
// the configuration and policies on disk now, not from those it started
// with. Before each call it stats the configuration file of every tier and
// every file of the team policy bundles (size, mtime, inode: no reads), and
// only when a stat changed it digests their contents; a changed digest
// rebuilds the engine. A configuration that no longer loads is an error for
// every call until it is fixed: the old engine is never used for a verdict
// once the files on disk say something else. It also notices the tausik
// binary being replaced, which no reload can pick up.
package live

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/internal/project"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/store"
)

// ErrReload marks a configuration or policy bundle that changed on disk and
// no longer loads; it wraps the loader's diagnostics (file:line).
var ErrReload = errors.New("the configuration or policies on disk do not load")

// Source hands out the engine for the configuration on disk. It is safe
// for concurrent use: a rebuild happens under its lock, and a call that
// already holds an engine finishes on it.
type Source struct {
	setup project.Setup
	opts  []engine.Option
	files []string
	team  string
	owned *store.Store // the store Source opened and Close closes

	mu     sync.Mutex
	cur    *engine.Engine
	err    error // why the files on disk do not load; cur is nil then
	stamps []stamp
	sum    string
	exe    *exeWatch
	reload int // engines built after the first, for tests and status
}

// Option tunes a Source.
type Option func(*Source)

// WithExecutable watches path as the tausik binary, digesting it at once
// (instead of os.Executable and, on Linux, /proc/self/exe).
func WithExecutable(path string) Option {
	return func(s *Source) { s.exe = newExeWatch(path, "") }
}

// WithEngineOptions passes options to every engine built.
func WithEngineOptions(opts ...engine.Option) Option {
	return func(s *Source) { s.opts = append(s.opts, opts...) }
}

// Open builds the first engine for setup, opening the project's store once
// for every engine to come (unless setup brings one or asks for none). A
// configuration that does not load at start is an error here, as for any
// command.
func Open(ctx context.Context, setup project.Setup, opts ...Option) (*Source, error) {
	s := &Source{}
	for _, o := range opts {
		o(s)
	}
	if s.exe == nil {
		if path, err := os.Executable(); err == nil {
			s.exe = newExeWatch(path, "/proc/self/exe")
		}
	}
	if setup.Store == nil && !setup.NoStore {
		getenv := setup.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		st, err := project.OpenStore(ctx, setup.Root, getenv)
		if err != nil {
			return nil, err
		}
		setup.Store, s.owned = st, st
	}
	s.setup = setup
	c := setup.ConfigPaths()
	s.files = []string{c.Project, c.User, c.Managed}
	s.team = filepath.Join(setup.Root, filepath.FromSlash(gate.TeamDir))
	s.stamps = snapshot(s.files, s.team)
	s.sum = digest(s.stamps)
	e, err := project.Open(ctx, setup, s.opts...)
	if err != nil {
		s.Close()
		return nil, err
	}
	s.cur = e
	return s, nil
}

// Engine returns the engine for the files on disk now, rebuilding it first
// when a configuration file or a team bundle changed since the last call.
// notices are what the caller must tell the agent alongside the result (the
// binary was replaced). When the files on disk do not load, it returns an
// error wrapping ErrReload and the loader's file:line diagnostics, and no
// engine: there is no verdict from a policy no longer in force.
func (s *Source) Engine(ctx context.Context) (*engine.Engine, []string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var notices []string
	if s.exe != nil && s.exe.check() {
		notices = append(notices, fmt.Sprintf("The tausik binary on disk (%s) was replaced after this MCP server started, "+
			"which still runs the old one: restart the host's MCP server (or the agent host) to run the new binary.", s.exe.path))
	}
	now := snapshot(s.files, s.team)
	if !sameStamps(now, s.stamps) {
		sum := digest(now)
		if sum != s.sum {
			s.rebuild(ctx)
		}
		s.stamps, s.sum = now, sum
	}
	if s.err != nil {
		return nil, notices, s.err
	}
	return s.cur, notices, nil
}

// rebuild builds the engine anew. The old one is not closed: calls still
// running on it finish there, and the store it borrowed stays open.
func (s *Source) rebuild(ctx context.Context) {
	e, err := project.Open(ctx, s.setup, s.opts...)
	s.reload++
	if err != nil {
		s.cur, s.err = nil, fmt.Errorf("%w (fix it; the next call loads it again):\n%w", ErrReload, err)
		return
	}
	s.cur, s.err = e, nil
}

// Reloads is how many times the engine was rebuilt after the first.
func (s *Source) Reloads() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reload
}

// Close closes the store Source opened.
func (s *Source) Close() error {
	if s.owned == nil {
		return nil
	}
	return s.owned.Close()
}
