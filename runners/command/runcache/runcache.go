// Package runcache keeps the runs of the stack gates' linters and
// compilers in the store's fact cache, so that an evaluation of a tree
// nothing changed in starts no tool: a run in a root is kept under a key
// that covers the tool (its executable's content and its version), the
// command line and environment, every file of the project and the
// configuration and lockfiles around the root (see runKey), and reused
// while that key is unchanged. Only results are kept (Keepable).
package runcache

import (
	"context"
	"encoding/json"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners/cache"
	"github.com/tausik/tausik/store"
)

// Spec says that a stack gate's tool is a pure function of what the run
// key covers. Linters and compilers qualify; test runners do not (a test
// may read the clock, the network or anything on disk), nor tools that
// fetch over the network (kubeconform's schemas) or read installed plugins
// and modules outside the tree (ansible-lint's collections, terraform's
// .terraform/).
type Spec struct {
	// Version is the command that prints the tool's version, run in the
	// root with the tool's environment on every evaluation; nil runs the
	// tool's executable with --version. A rustup proxy's answer depends on
	// the toolchain the root selects, so it is asked each time, not
	// remembered by the proxy's file.
	Version []string
	// Also are the version commands of programs the tool runs in turn
	// (golangci-lint runs go): their executables and answers are part of
	// the key too.
	Also [][]string
}

// Store is the part of *store.Store that keeps runs: the fact cache's JSON
// entries for the runs, its text rows for the indexes of the project's
// files and of the programs (package cache).
type Store interface {
	cache.Store
	CacheGetMany(ctx context.Context, runner, version string, shas []string) (map[string]json.RawMessage, error)
	CachePutMany(ctx context.Context, entries []store.CacheEntry) error
}

// Cache keeps runs in a store for one tausik binary. A nil *Cache keeps
// nothing.
type Cache struct {
	st       Store
	identity string
}

// New returns the cache over st for the running tausik, identified by
// identity (a rebuilt tausik parses output anew); nil when either is
// missing.
func New(st Store, identity string) *Cache {
	if st == nil || identity == "" {
		return nil
	}
	return &Cache{st: st, identity: identity}
}

// runnerName is the fact cache's runner name for kept runs; the indexes of
// the project's files and of the programs are kept under runnerName +
// ".tree" and ".programs".
const runnerName = "command"

// format versions what a run key covers and how a run is kept.
const format = "command-run/1"

// Kept is a root's run as kept: its facts (without the streams) and its
// findings, with paths repo-relative.
type Kept struct {
	Run   facts.RootRun      `json:"run"`
	Diags []facts.Diagnostic `json:"diagnostics"`
	Cases []facts.TestCase   `json:"cases"`
}

// Lookup returns the run kept under key, if any.
func (c *Cache) Lookup(ctx context.Context, key string) (Kept, bool) {
	if c == nil || key == "" {
		return Kept{}, false
	}
	got, err := c.st.CacheGetMany(ctx, runnerName, c.version(), []string{key})
	if err != nil {
		return Kept{}, false
	}
	raw, ok := got[key]
	if !ok {
		return Kept{}, false
	}
	var k Kept
	if json.Unmarshal(raw, &k) != nil || !Keepable(k.Run) {
		return Kept{}, false
	}
	return k, true
}

// Keep stores k under key when it is a result rather than a failure to get
// one: its findings and outcome, not the tool's output (the streams are
// kept empty; the stack policies quote them only for a run that is never
// kept). Failing to store only costs the next evaluation a run.
func (c *Cache) Keep(ctx context.Context, key string, k Kept) {
	if c == nil || key == "" || !Keepable(k.Run) {
		return
	}
	k.Run.Stdout, k.Run.Stderr = "", ""
	raw, err := json.Marshal(k)
	if err != nil {
		return
	}
	_ = c.st.CachePutMany(ctx, []store.CacheEntry{{Key: store.CacheKey{Runner: runnerName, Version: c.version(), SHA256: key}, Value: raw}})
}

// version is the fact cache version runs are kept under.
func (c *Cache) version() string { return format + "+" + c.identity }

// Keepable reports whether a root's run is a result worth keeping: the tool
// ran to an exit code and its output was read, and a non-zero exit came
// with a finding. A tool that was missing, crashed, was killed or timed
// out, or exited non-zero saying nothing a parser located (a broken config,
// an internal error), runs again next time.
func Keepable(run facts.RootRun) bool {
	return run.Ran && run.Reason == "" && (run.ExitCode == 0 || run.Findings > 0)
}
