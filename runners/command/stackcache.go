package command

import (
	"context"
	"encoding/json"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners/cache"
	"github.com/tausik/tausik/store"
)

// CacheSpec says that a stack gate's tool is a pure function of what the
// run key covers (see runKey): its program, the command line and
// environment, the project's files and the configuration and lockfiles
// around its root. Linters and compilers qualify; test runners do not (a
// test may read the clock, the network or anything on disk), nor tools
// that fetch over the network (kubeconform's schemas) or read installed
// plugins and modules outside the tree (ansible-lint's collections,
// terraform's .terraform/).
type CacheSpec struct {
	// Version is the command that prints the tool's version, run in the
	// root with the tool's environment on every evaluation; nil runs the
	// tool's executable with --version. A rustup proxy's answer depends on
	// the toolchain the root selects, so it is asked each time, not
	// remembered by the proxy's file.
	Version []string
	// Also are the version commands of programs the tool runs in turn
	// (golangci-lint runs go): their answers are part of the key too.
	Also [][]string
}

// cachedStacks are the stack gates whose runs are kept, by name.
var cachedStacks = map[string]CacheSpec{
	"tsc":           {},
	"eslint":        {},
	"golangci_lint": {Also: [][]string{{"go", "version"}}},
	"cargo_check":   {},
	"clippy":        {Version: []string{"cargo", "clippy", "--version"}},
	"helm_lint":     {Version: []string{"helm", "version"}},
	"shellcheck":    {},
	"yamllint":      {},
	"hadolint":      {},
	"phpcs":         {},
	"phpstan":       {},
	"javac":         {Version: []string{"javac", "-version"}},
	"ktlint":        {},
}

// Store is the part of *store.Store that keeps command runs: the fact
// cache's JSON entries for the runs, its text rows for the index of the
// project's files (package cache).
type Store interface {
	cache.Store
	CacheGetMany(ctx context.Context, runner, version string, shas []string) (map[string]json.RawMessage, error)
	CachePutMany(ctx context.Context, entries []store.CacheEntry) error
}

// WithCache keeps the runs of a spec with a CacheSpec in st, under the
// running tausik's identity (a rebuilt tausik parses output anew): a root
// whose run key is unchanged since a kept run is not run again, and its
// facts are that run's, marked cached. A nil st keeps nothing.
func WithCache(st Store, identity string) Option {
	return func(o *options) { o.st, o.identity = st, identity }
}

// cacheRunner is the fact cache's runner name for kept command runs; the
// project's file index is kept under cacheRunner + ".tree".
const cacheRunner = "command"

// cacheFormat versions what a run key covers and how a run is kept.
const cacheFormat = "command-run/1"

// keptRun is a root's run as kept: its facts and its findings, with paths
// repo-relative.
type keptRun struct {
	Run   facts.RootRun      `json:"run"`
	Diags []facts.Diagnostic `json:"diagnostics"`
	Cases []facts.TestCase   `json:"cases"`
}

// caches reports whether the runner keeps runs at all.
func (r *Runner) caches() bool {
	return r.st != nil && r.identity != "" && r.spec.Cache != nil
}

// kept returns the run kept under key, if any.
func (r *Runner) kept(ctx context.Context, key string) (keptRun, bool) {
	got, err := r.st.CacheGetMany(ctx, cacheRunner, r.cacheVersion(), []string{key})
	if err != nil {
		return keptRun{}, false
	}
	raw, ok := got[key]
	if !ok {
		return keptRun{}, false
	}
	var k keptRun
	if json.Unmarshal(raw, &k) != nil || !keepable(k.Run) {
		return keptRun{}, false
	}
	return k, true
}

// keep stores run under key when it is a result rather than a failure to
// get one; failing to store only costs the next evaluation a run.
func (r *Runner) keep(ctx context.Context, key string, k keptRun) {
	if !keepable(k.Run) {
		return
	}
	raw, err := json.Marshal(k)
	if err != nil {
		return
	}
	_ = r.st.CachePutMany(ctx, []store.CacheEntry{{Key: store.CacheKey{Runner: cacheRunner, Version: r.cacheVersion(), SHA256: key}, Value: raw}})
}

// cacheVersion is the fact cache version runs are kept under.
func (r *Runner) cacheVersion() string { return cacheFormat + "+" + r.identity }

// keepable reports whether a root's run is a result worth keeping: the tool
// ran to an exit code and its output was read, and a non-zero exit came
// with a finding. A tool that was missing, crashed, was killed or timed
// out, or exited non-zero saying nothing a parser located (a broken config,
// an internal error), runs again next time.
func keepable(run facts.RootRun) bool {
	return run.Ran && run.Reason == "" && (run.ExitCode == 0 || run.Findings > 0)
}
