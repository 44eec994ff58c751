// Package hosts is the runner for the "hosts" namespace: it runs each
// configured generator of an agent host's wiring (hooks, plugins, MCP
// registration) in a clean temporary copy of the project, reads what it
// wrote with the host's format reader, reads what each host has installed
// in its profile directory, and compares deployed copies of scripts with
// their source. cross_model_parity and bootstrap_drift judge these facts;
// the runner decides nothing.
package hosts

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/hosts/formats"
	"github.com/tausik/tausik/runners"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = "hosts"

// Placeholders a generator's argv may hold, anywhere inside an argument.
const (
	// OutArg becomes the directory the generator writes into: the root of
	// a tree laid out as the project is (.claude/settings.json, …).
	OutArg = "{out}"
	// SelfArg becomes the running tausik binary.
	SelfArg = "{tausik}"
)

// DefaultTimeout bounds one generator's run when its config sets none.
const DefaultTimeout = 60 * time.Second

// Generator is one host's configured generator.
type Generator struct {
	Host string
	// Argv is the command, never given to a shell, with OutArg and SelfArg
	// placeholders. The engine has checked it against the allow-list.
	Argv []string
	// Format names the reader of what it writes (formats.Names).
	Format string
	// Profile is the host's directory, project-relative ("" = the host's
	// default, see Known).
	Profile string
	// Timeout bounds the run; zero means DefaultTimeout.
	Timeout time.Duration
	// Table extends the host's built-in tool and event table.
	Table formats.Table
}

// HostInfo is what tausik knows of a host without being told.
type HostInfo struct {
	Format  string
	Profile string
	// MCPFiles are project-relative files outside the profile holding the
	// host's MCP registration.
	MCPFiles []string
}

// Known are the hosts whose profile directories the runner looks into for
// deployed capabilities, with or without a generator.
var Known = map[string]HostInfo{
	"claude":   {Format: formats.ClaudeSettings, Profile: ".claude", MCPFiles: []string{".mcp.json"}},
	"qwen":     {Format: formats.ClaudeSettings, Profile: ".qwen"},
	"gemini":   {Format: formats.ClaudeSettings, Profile: ".gemini"},
	"codex":    {Format: formats.ClaudeSettings, Profile: ".codex"},
	"factory":  {Format: formats.ClaudeSettings, Profile: ".factory", MCPFiles: []string{".factory/mcp.json"}},
	"cursor":   {Format: formats.CursorHooks, Profile: ".cursor", MCPFiles: []string{".cursor/mcp.json"}},
	"copilot":  {Format: formats.CopilotHooks, Profile: ".github/hooks", MCPFiles: []string{".vscode/mcp.json"}},
	"windsurf": {Format: formats.WindsurfHooks, Profile: ".windsurf"},
	"opencode": {Format: formats.Plugins, Profile: ".opencode", MCPFiles: []string{"opencode.json"}},
	"kilo":     {Format: formats.Plugins, Profile: ".kilo", MCPFiles: []string{"kilo.json"}},
}

// Facts is the "hosts" namespace.
type Facts struct {
	// Generators lists the hosts that have a generator, sorted.
	Generators []string `json:"generators"`
	// Hosts holds every host with a generator or with its profile
	// directory present on disk.
	Hosts map[string]Host `json:"hosts"`
	// Copies compares each deployed copy of a source directory with it.
	Copies []CopyFacts `json:"copies"`
}

// Host is one host's facts.
type Host struct {
	Format  string `json:"format"`
	Kind    string `json:"kind"` // formats.KindHook or formats.KindPlugin
	Profile string `json:"profile"`
	// Generator is the configured argv; empty when the host has none.
	Generator []string `json:"generator"`
	// Status is "ok" (the generator ran and wrote something readable),
	// "failed" (see Reason, ExitCode, StderrTail) or "none" (no generator).
	Status     string `json:"status"`
	Reason     string `json:"reason,omitempty"`
	ExitCode   int    `json:"exit_code"`
	StderrTail string `json:"stderr_tail"`
	// Generated is what the generator wrote today; nil unless Status is ok.
	Generated *formats.Reading `json:"generated"`
	// Installed is what the host's profile directory on disk holds; nil
	// when the directory is absent.
	Installed *formats.Reading `json:"installed"`
	// InstalledError says why the installed files could not be read.
	InstalledError string `json:"installed_error,omitempty"`
}

// The statuses of a host.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
	StatusNone   = "none"
)

// Runner gathers the "hosts" namespace.
type Runner struct {
	gens     []Generator
	self     string
	copies   []Copy
	st       Store
	identity string
	confine  []string // writable directories when generators run sandboxed; nil: unconfined
}

// Option tunes a Runner at construction.
type Option func(*Runner)

// WithSelf sets the binary SelfArg stands for.
func WithSelf(path string) Option { return func(r *Runner) { r.self = path } }

// WithSandbox runs each generator in a sandbox (internal/sandbox) where
// only writable and the generator's own workspace can be written: a fixture
// run's temp copy. Where the machine allows none, generators run unconfined.
func WithSandbox(writable ...string) Option {
	return func(r *Runner) { r.confine = append([]string{}, writable...) }
}

// WithCopies sets the deployed copies to compare with their source.
func WithCopies(c []Copy) Option { return func(r *Runner) { r.copies = c } }

// New returns a runner for gens (nil: no generator is configured, and only
// installed hosts and copies are reported).
func New(gens []Generator, opts ...Option) *Runner {
	r := &Runner{gens: slices.Clone(gens)}
	sort.Slice(r.gens, func(i, j int) bool { return r.gens[i].Host < r.gens[j].Host })
	for _, o := range opts {
		o(r)
	}
	return r
}

// Namespace implements runners.Runner.
func (*Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner. The namespace is an error only when the
// project itself cannot be listed or copied; a generator that fails is a
// host with status failed, for the gates to turn into COULD_NOT_RUN.
func (r *Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	out := Facts{Generators: []string{}, Hosts: map[string]Host{}, Copies: []CopyFacts{}}
	var files []string
	if len(r.gens) > 0 {
		var err error
		if files, err = s.RepoFiles(ctx); err != nil {
			return facts.Error("list the project's files to copy for the generators: " + err.Error())
		}
	}
	results, err := r.run(ctx, s.Root, files)
	if err != nil {
		return facts.Error(err.Error())
	}
	for i, g := range r.gens {
		out.Generators = append(out.Generators, g.Host)
		if out.Hosts[g.Host], err = withInstalled(results[i], s.Root, info(g), g.Table, g.Host); err != nil {
			return facts.Error(err.Error())
		}
	}
	for _, host := range slices.Sorted(maps.Keys(Known)) {
		if _, ok := out.Hosts[host]; ok {
			continue
		}
		hi := Known[host]
		h := Host{Format: hi.Format, Kind: formats.Kind(hi.Format), Profile: hi.Profile, Generator: []string{}, Status: StatusNone}
		if h, err = withInstalled(h, s.Root, hi, formats.Table{}, host); err != nil {
			return facts.Error(err.Error())
		}
		if h.Installed != nil || h.InstalledError != "" {
			out.Hosts[host] = h
		}
	}
	for _, c := range r.copies {
		cfs, err := compareCopies(s.Root, c)
		if err != nil {
			return facts.Error(err.Error())
		}
		out.Copies = append(out.Copies, cfs...)
	}
	return facts.OK(out)
}

// run runs every generator, or takes its kept result when nothing it is
// given changed since.
func (r *Runner) run(ctx context.Context, root string, files []string) ([]Host, error) {
	results := make([]Host, len(r.gens))
	var keys []string
	kept := map[int]Host{}
	if r.st != nil && len(r.gens) > 0 {
		tree, err := treeDigest(root, files)
		if err != nil {
			return nil, fmt.Errorf("read the project for the generators: %w", err)
		}
		for _, g := range r.gens {
			k, err := r.cacheKey(g, tree)
			if err != nil {
				return nil, err
			}
			keys = append(keys, k)
		}
		kept = r.kept(ctx, keys)
	}
	if len(kept) == len(r.gens) {
		for i := range r.gens {
			results[i] = kept[i]
		}
		return results, nil
	}
	ws, err := newWorkspace(root, files)
	if err != nil {
		return nil, fmt.Errorf("copy the project for the generators: %w", err)
	}
	defer ws.remove()
	fresh := map[int]bool{}
	for i, g := range r.gens {
		if h, ok := kept[i]; ok {
			results[i] = h
			continue
		}
		results[i], fresh[i] = r.generate(ctx, ws, g), true
	}
	if r.st != nil {
		r.keep(ctx, keys, results, fresh)
	}
	return results, nil
}

// info is g's host information: Known's, with g's format and profile.
func info(g Generator) HostInfo {
	hi := Known[g.Host]
	if g.Format != "" && g.Format != hi.Format {
		hi.MCPFiles = nil
	}
	if g.Format != "" {
		hi.Format = g.Format
	}
	if g.Profile != "" {
		hi.Profile = g.Profile
	}
	if hi.Profile == "" {
		hi.Profile = "." + g.Host
	}
	return hi
}

// withInstalled adds to h what the host's profile directory under root
// holds, when the directory exists; a profile that does not parse is
// h.InstalledError, for the gates to report per host. A profile, or a file
// in it, that is there but cannot be read is an error naming it: a fact not
// gathered must not read as "not installed".
func withInstalled(h Host, root string, hi HostInfo, more formats.Table, host string) (Host, error) {
	st, err := os.Stat(filepath.Join(root, filepath.FromSlash(hi.Profile)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return h, nil
	case err != nil:
		return h, fmt.Errorf("%s profile %s: %w: %v", host, hi.Profile, formats.ErrUnreadable, err)
	case !st.IsDir():
		return h, fmt.Errorf("%s profile %s: %w: a file where the host keeps a directory", host, hi.Profile, formats.ErrUnreadable)
	}
	rd, err := formats.Read(hi.Format, root, hi.Profile, hi.MCPFiles, formats.BuiltinTable(host).Extend(more))
	switch {
	case errors.Is(err, formats.ErrUnreadable):
		return h, fmt.Errorf("%s profile: %w", host, err)
	case err != nil:
		h.InstalledError = err.Error()
		return h, nil
	}
	h.Installed = &rd
	return h, nil
}
