// Package commandgate is the command gates' model: the built-in command
// specs and the ones the config tiers define, the gate each defined
// command becomes (the generic command policy, embedded here with its
// fixtures), and the runners that run them, in a project or in a
// fixture's temporary copy.
package commandgate

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/tausik/tausik/engine/config"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/pathpat"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/command"
	"github.com/tausik/tausik/runners/hosts"
	"github.com/tausik/tausik/runners/surface"
)

// commandBundle is the generic policy every config-defined command gate
// shares, with the fixtures that prove it. Its fixtures give the command's
// facts under the namespace commandFixtureNS, which each gate reads as its own.
//
//go:embed policy.rego fixtures
var commandBundle embed.FS

const (
	commandFixtureNS = "command"
	// PolicyDir is how messages name the generic command policy's bundle.
	PolicyDir = "builtin/command"
	// ParamExclude is the param of a command gate whose effective value the
	// engine hands its runner: paths the tool is not given (see
	// command.Spec.Exclude). The project tier may only add to it.
	ParamExclude = "exclude"
	// ParamNamespace tells the generic command policy which namespace is its
	// gate's.
	ParamNamespace = "namespace"
)

// genericCommand is the compiled generic command policy.
type genericCommand struct {
	policy   policy.Policy
	digest   string
	fsys     fs.FS
	fixtures []string
	err      error
}

var (
	genericOnce sync.Once
	generic     genericCommand
)

// loadGenericCommand compiles the generic command policy once per process.
func loadGenericCommand(ctx context.Context) (genericCommand, error) {
	genericOnce.Do(func() {
		var sub fs.FS = commandBundle
		src, err := fs.ReadFile(sub, gate.FileRego)
		if err != nil {
			generic.err = err
			return
		}
		d := &diag.Diagnostics{Kind: diag.ErrBundle}
		p := policy.CompileRego(ctx, commandFixtureNS, path.Join(PolicyDir, gate.FileRego), src, d)
		if p == nil {
			generic.err = d
			return
		}
		generic.policy, generic.digest, generic.fsys = p, facts.DigestBytes(src), sub
		entries, _ := fs.ReadDir(sub, gate.DirFixtures)
		for _, e := range entries {
			if e.IsDir() {
				generic.fixtures = append(generic.fixtures, e.Name())
			}
		}
		sort.Strings(generic.fixtures)
	})
	return generic, generic.err
}

// commandGate synthesises the gate of a config-defined command c: the
// generic policy reading the command's namespace, listed with the config
// file as its source.
func commandGate(c *config.CommandGate, gc genericCommand) *gate.Gate {
	desc := c.Description
	if desc == "" {
		desc = "Team command gate: runs `" + strings.Join(c.Spec.Argv, " ") + "`; a non-zero exit fails it."
	}
	exclude := make(map[string]any, len(c.Spec.Exclude))
	for _, x := range c.Spec.Exclude {
		exclude[x] = "listed in " + c.Tier.Display() + " " + config.KeyCommands + "." + c.Spec.Name + ".exclude"
	}
	name := c.Spec.Name
	return &gate.Gate{
		Meta: gate.Meta{
			Name: name, Description: desc,
			Prevents: fmt.Sprintf("A change for which `%s` exits non-zero (or cannot run) passing the %s gate.",
				strings.Join(c.Spec.Argv, " "), name),
			Phase: "scoped", Triggers: c.Triggers, Severity: c.Severity, Enabled: true, Language: gate.LangRego,
			Facts: []string{name},
			Params: []gate.Param{
				{Name: ParamExclude, Type: gate.TypePaths, Legacy: pathpat.LegacyGitignore, Default: exclude, ProjectMay: gate.MayAdd,
					Description: "Paths the command is not given (path patterns, docs/paths.md), each mapped to the reason why."},
				{Name: ParamNamespace, Type: gate.TypeString, Default: name, ProjectMay: gate.MayNone,
					Description: "The namespace holding this gate's command facts."},
			},
		},
		Source:       c.Tier.Display(),
		Dir:          PolicyDir,
		PolicyFile:   path.Join(PolicyDir, gate.FileRego),
		PolicyDigest: gc.digest,
		Fixtures:     slices.Clone(gc.fixtures),
		Policy:       gc.policy,
		BundleFS:     gc.fsys,
		FactsAlias:   map[string]string{commandFixtureNS: name},
	}
}

// Set is one engine's command gates: the built-in specs, and what the
// config tiers say about command gates once they are resolved. A nil Set
// has none.
type Set struct {
	builtin []command.Spec
	cfg     *config.Commands
}

// NewSet is the command gates of the built-in specs, before any config.
func NewSet(builtin []command.Spec) *Set { return &Set{builtin: builtin} }

// Config is what the tiers say about command gates, nil before Resolve.
func (s *Set) Config() *config.Commands {
	if s == nil {
		return nil
	}
	return s.cfg
}

// Cached reports whether the stack gates' runs may be kept in the fact
// cache: no tier turned command_cache off, nor TAUSIK_COMMAND_CACHE.
func (s *Set) Cached() bool { return s.Config() == nil || !s.cfg.NoCache }

// Python is the interpreter a tier names for the pytest gate, "" for none.
func (s *Set) Python() string {
	if s.Config() == nil {
		return ""
	}
	return s.cfg.Python
}

// SpecFor returns the spec of the command gate g, with the exclusions
// params give it; ok is false when g is not a command gate.
func (s *Set) SpecFor(g *gate.Gate, params map[string]any) (command.Spec, bool) {
	spec, found := s.Builtin(g.Name)
	if tc := s.Team(g.Name); tc != nil {
		spec, found = tc.Spec, true
	}
	if !found {
		return spec, false
	}
	if v, ok := params[ParamExclude].(map[string]any); ok {
		spec.Exclude = slices.Sorted(maps.Keys(v))
	}
	return spec, true
}

// Runners builds a runner for every command gate of gates from its
// effective config (effs); python runs the built-in pytest gate; opts tune
// every runner (command.WithCache). A built-in command whose bundle is
// absent is not built. A command that cannot be built is an ErrConfig
// naming the config key behind it.
func (s *Set) Runners(gates []*gate.Gate, effs map[string]*config.Effective, tiers []*config.File, python string, opts ...command.Option) ([]runners.Runner, error) {
	d := &diag.Diagnostics{Kind: diag.ErrConfig}
	var rs []runners.Runner
	for _, g := range gates {
		eff := effs[g.Name]
		spec, ok := s.SpecFor(g, eff.Params)
		if !ok {
			continue
		}
		allow := s.cfg.Allow
		if tc := s.Team(g.Name); tc != nil {
			allow = s.cfg.AllowFor(tc)
		} else if spec.Parser == command.ParserPytest {
			spec.Argv = append([]string{python}, spec.Argv[1:]...)
		}
		r, err := command.New(spec, append([]command.Option{command.WithAllowed(allow...)}, opts...)...)
		if err != nil {
			file, line, key := s.blame(tiers, g.Name, eff)
			d.Add(file, line, "%s: %v", key, err)
			continue
		}
		rs = append(rs, r)
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	return rs, nil
}

// blame finds the config key behind a command gate that did not build: the
// exclusions a tier set, else the python key, else the gate's definition.
func (s *Set) blame(tiers []*config.File, name string, eff *config.Effective) (string, int, string) {
	if file, line, ok := config.ParamSetter(tiers, name, eff, ParamExclude); ok {
		return file, line, "gates." + name + ".params." + ParamExclude
	}
	if tc := s.Team(name); tc != nil {
		return tc.Tier.Display(), tc.Tier.Line(config.KeyCommands, name), config.KeyCommands + "." + name
	}
	if t := s.cfg.PythonTier; t != nil {
		return t.Display(), t.Line(config.KeyPython), config.KeyPython
	}
	return PolicyDir, 0, name
}

// Team returns the command gate a config tier defines called name, nil
// when there is none.
func (s *Set) Team(name string) *config.CommandGate {
	if s.Config() == nil {
		return nil
	}
	for _, c := range s.cfg.Team {
		if c.Spec.Name == name {
			return c
		}
	}
	return nil
}

// Builtin returns the built-in command spec called name.
func (s *Set) Builtin(name string) (command.Spec, bool) {
	if s == nil {
		return command.Spec{}, false
	}
	i := slices.IndexFunc(s.builtin, func(c command.Spec) bool { return c.Name == name })
	if i < 0 {
		return command.Spec{}, false
	}
	return s.builtin[i], true
}

// Is reports whether ns is a command gate's namespace.
func (s *Set) Is(ns string) bool {
	_, builtin := s.Builtin(ns)
	return builtin || s.Team(ns) != nil
}

// fixtureCommands returns runners for the command namespaces gate g reads,
// built for a fixture copied to dir: the built-in spec, the case's params,
// the default allow-list, an environment that keeps every tool's config,
// caches, temp files and telemetry inside dir (see fixtureToolEnv), and a
// sandbox where nothing outside dir can be written (internal/sandbox). A fixture
// never runs a config-defined command; a gate reading the hosts namespace
// gets the generators of the fixture's own tree (see FixtureHosts).
func (s *Set) FixtureRunners(g *gate.Gate, params map[string]any, dir string) ([]runners.Runner, error) {
	var rs []runners.Runner
	for _, ns := range g.Facts {
		spec, ok := s.Builtin(ns)
		if !ok {
			continue
		}
		if v, ok := params[ParamExclude].(map[string]any); ok && ns == g.Name {
			spec.Exclude = slices.Sorted(maps.Keys(v))
		}
		spec.Env = append(slices.Clone(spec.Env), fixtureToolEnv(dir)...)
		r, err := command.New(spec, command.WithSandbox(dir))
		if err != nil {
			return nil, fmt.Errorf("command %s: %w", ns, err)
		}
		rs = append(rs, r)
	}
	if len(rs) > 0 {
		if err := os.MkdirAll(filepath.Join(dir, ".cache", "tmp"), 0o755); err != nil { // the tools' TMPDIR
			return nil, fmt.Errorf("fixture temp dir: %w", err)
		}
	}
	if slices.Contains(g.Facts, hosts.Namespace) {
		r, err := config.FixtureHosts(params, dir)
		if err != nil {
			return nil, fmt.Errorf("generators: %w", err)
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// Resolve reads the tiers' command sections into the set; taken reports
// whether a name is already a gate, a namespace or a built-in command,
// which a defined command may not shadow. It returns the gate of each
// command a config defines.
func (s *Set) Resolve(ctx context.Context, tiers []*config.File, taken func(string) (string, bool)) ([]*gate.Gate, error) {
	cs, err := config.ResolveCommands(tiers, taken)
	if err != nil {
		return nil, err
	}
	s.cfg = cs
	if len(cs.Team) == 0 {
		return nil, nil
	}
	gc, err := loadGenericCommand(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: the generic command policy: %v", diag.ErrBundle, err)
	}
	gates := make([]*gate.Gate, 0, len(cs.Team))
	for _, c := range cs.Team {
		gates = append(gates, commandGate(c, gc))
	}
	return gates, nil
}

// Reserved reports whether name is a facts namespace that runners own or
// will own: a command gate named after one would shadow its facts.
func Reserved(name string) bool { return slices.Contains(reservedNamespaces, name) }

// reservedNamespaces are facts namespaces that runners own or will own; a
// command gate named after one would shadow its facts.
var reservedNamespaces = []string{"schema", "params", "tool", "files", "python", "go", "git", "verify", "task", "session",
	"hosts", "renar", "config", "store", "decision", commandFixtureNS}

// fixtureToolEnv points the tools a fixture runs at dir for their home,
// config, caches and temp files (go's build cache, pytest's and mypy's
// caches, Python bytecode, pytest's tmp_path), so `policy test` writes
// nothing outside its temp copy and no user's settings change a fixture's
// verdict.
func fixtureToolEnv(dir string) []string {
	cache := filepath.Join(dir, ".cache")
	return append([]string{
		"HOME=" + dir, "XDG_CACHE_HOME=" + cache, "TMPDIR=" + filepath.Join(cache, "tmp"), "XDG_CONFIG_HOME=" + filepath.Join(dir, ".config"),
		"GOCACHE=" + filepath.Join(cache, "go-build"), "GOPATH=" + filepath.Join(dir, ".gopath"),
		"GOTELEMETRY=off", "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=", "GOENV=off",
		"PYTHONDONTWRITEBYTECODE=1", "PYTHONNOUSERSITE=1",
	}, stackToolEnv(dir)...)
}

// JudgedBy returns which files gate g judges for the loophole check: a
// command gate's and a gate with an extensions param judge their
// extensions, a gate reading the surface namespace Python and Go, any other
// gate every file.
func (s *Set) JudgedBy(g *gate.Gate, params map[string]any) func(string) bool {
	var exts []string
	if spec, ok := s.SpecFor(g, params); ok {
		exts = spec.Extensions
	} else if v, ok := params["extensions"].([]any); ok {
		exts = config.Strings(v)
	} else if slices.Contains(g.Facts, surface.Namespace) {
		exts = []string{".py", ".go"}
	}
	if len(exts) == 0 {
		return func(string) bool { return true }
	}
	return func(f string) bool { return slices.Contains(exts, strings.ToLower(path.Ext(f))) }
}

// KeepOffHooks drops hook triggers from command gates that only the
// project tier put there: a project's own command gate, or a project
// override adding the trigger to any command gate. A command gate runs at
// pre-write when its built-in default, its user- or managed-tier definition,
// or a user- or managed-tier "triggers" override says so. It returns a
// config warning for each drop, reported and logged with every decision.
func (s *Set) KeepOffHooks(gates []*gate.Gate, effs map[string]*config.Effective, tiers []*config.File) []string {
	var warnings []string
	var project *config.File
	for _, t := range tiers {
		if t != nil && t.Tier() == config.TierProject {
			project = t
		}
	}
	for _, g := range gates {
		eff := effs[g.Name]
		if eff == nil || !s.Is(g.Name) {
			continue
		}
		if by := eff.SetBy["triggers"]; by == config.TierUser || by == config.TierManaged {
			continue
		}
		tc := s.Team(g.Name)
		trusted := tc == nil || tc.Tier.Tier() != config.TierProject
		var kept, dropped []string
		for _, tr := range eff.Triggers {
			if slices.Contains(config.HookTriggers, tr) && !(trusted && slices.Contains(g.Triggers, tr)) {
				dropped = append(dropped, tr)
				continue
			}
			kept = append(kept, tr)
		}
		if len(dropped) == 0 {
			continue
		}
		eff.Triggers = kept
		if kept == nil {
			eff.Triggers = []string{}
		}
		file, line, key := "tausik/gates.json", 0, "gates."+g.Name+".triggers"
		switch {
		case eff.SetBy["triggers"] == config.TierProject && project != nil:
			file, line = project.Display(), project.Line("gates", g.Name, "triggers")
		case tc != nil:
			file, line, key = tc.Tier.Display(), tc.Tier.Line(config.KeyCommands, g.Name, "triggers"), config.KeyCommands+"."+g.Name+".triggers"
		}
		warnings = append(warnings, fmt.Sprintf("%s:%d: %s: %s refused: a command gate runs on an agent's every edit only when "+
			"the user or managed tier says so (gates.%s.triggers there); it runs at its other triggers",
			file, line, key, strings.Join(dropped, ", "), g.Name))
	}
	return warnings
}
