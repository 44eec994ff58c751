package engine

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
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/pathpat"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/command"
	"github.com/tausik/tausik/runners/hosts"
)

// commandBundle is the generic policy every config-defined command gate
// shares, with the fixtures that prove it. Its fixtures give the command's
// facts under the namespace commandFixtureNS, which each gate reads as its own.
//
//go:embed commandgate
var commandBundle embed.FS

const (
	commandGateDir   = "commandgate"
	commandFixtureNS = "command"
	// CommandPolicyDir is how messages name the generic command policy's bundle.
	CommandPolicyDir = "builtin/command"
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
		sub, err := fs.Sub(commandBundle, commandGateDir)
		if err != nil {
			generic.err = err
			return
		}
		src, err := fs.ReadFile(sub, gate.FileRego)
		if err != nil {
			generic.err = err
			return
		}
		d := &Diagnostics{Kind: ErrBundle}
		p := policy.CompileRego(ctx, commandFixtureNS, path.Join(CommandPolicyDir, gate.FileRego), src, d)
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
		Dir:          CommandPolicyDir,
		PolicyFile:   path.Join(CommandPolicyDir, gate.FileRego),
		PolicyDigest: gc.digest,
		Fixtures:     slices.Clone(gc.fixtures),
		Policy:       gc.policy,
		BundleFS:     gc.fsys,
		FactsAlias:   map[string]string{commandFixtureNS: name},
	}
}

// commandSpecFor returns the spec of the command gate g, with the exclusions
// params give it; ok is false when g is not a command gate.
func (e *Engine) commandSpecFor(g *gate.Gate, params map[string]any) (command.Spec, bool) {
	spec, found := e.builtinSpec(g.Name)
	if tc := e.teamCommand(g.Name); tc != nil {
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

// registerCommands keeps command gates off the hooks a person's tier did not
// put them on (keepCommandsOffHooks), builds a runner for every command gate
// from its effective config and adds them to the engine's registry. A built-in command whose
// bundle is absent is not registered.
func (e *Engine) registerCommands(tiers []*config.File) error {
	e.keepCommandsOffHooks(tiers)
	d := &Diagnostics{Kind: ErrConfig}
	var rs []runners.Runner
	for _, g := range e.gates {
		eff := e.eff[g.Name]
		spec, ok := e.commandSpecFor(g, eff.Params)
		if !ok {
			continue
		}
		allow := e.cmds.Allow
		if tc := e.teamCommand(g.Name); tc != nil {
			allow = e.cmds.AllowFor(tc)
		} else if spec.Parser == command.ParserPytest {
			spec.Argv = append([]string{e.Python()}, spec.Argv[1:]...)
		}
		r, err := command.New(spec, command.WithAllowed(allow...))
		if err != nil {
			file, line, key := e.blame(tiers, g.Name, eff)
			d.Add(file, line, "%s: %v", key, err)
			continue
		}
		rs = append(rs, r)
	}
	if err := d.Err(); err != nil {
		return err
	}
	e.runners = e.runners.With(rs...)
	return nil
}

// blame finds the config key behind a command gate that did not build: the
// exclusions a tier set, else the python key, else the gate's definition.
func (e *Engine) blame(tiers []*config.File, name string, eff *config.Effective) (string, int, string) {
	if file, line, ok := config.ParamSetter(tiers, name, eff, ParamExclude); ok {
		return file, line, "gates." + name + ".params." + ParamExclude
	}
	if tc := e.teamCommand(name); tc != nil {
		return tc.Tier.Display(), tc.Tier.Line(config.KeyCommands, name), config.KeyCommands + "." + name
	}
	if t := e.cmds.PythonTier; t != nil {
		return t.Display(), t.Line(config.KeyPython), config.KeyPython
	}
	return CommandPolicyDir, 0, name
}

func (e *Engine) teamCommand(name string) *config.CommandGate {
	if e.cmds == nil {
		return nil
	}
	for _, c := range e.cmds.Team {
		if c.Spec.Name == name {
			return c
		}
	}
	return nil
}

// builtinSpec returns the built-in command spec called name.
func (e *Engine) builtinSpec(name string) (command.Spec, bool) {
	i := slices.IndexFunc(e.builtinCommands, func(s command.Spec) bool { return s.Name == name })
	if i < 0 {
		return command.Spec{}, false
	}
	return e.builtinCommands[i], true
}

// isCommand reports whether ns is a command gate's namespace.
func (e *Engine) isCommand(ns string) bool {
	_, builtin := e.builtinSpec(ns)
	return builtin || e.teamCommand(ns) != nil
}

// fixtureCommands returns runners for the command namespaces gate g reads,
// built for a fixture copied to dir: the built-in spec, the case's params,
// the default allow-list, an environment that keeps every tool's config,
// caches, temp files and telemetry inside dir (see fixtureToolEnv), and a
// sandbox where nothing outside dir can be written (internal/sandbox). A fixture
// never runs a config-defined command; a gate reading the hosts namespace
// gets the generators of the fixture's own tree (see FixtureHosts).
func (e *Engine) fixtureCommands(g *gate.Gate, params map[string]any, dir string) ([]runners.Runner, error) {
	var rs []runners.Runner
	for _, ns := range g.Facts {
		s, ok := e.builtinSpec(ns)
		if !ok {
			continue
		}
		if v, ok := params[ParamExclude].(map[string]any); ok && ns == g.Name {
			s.Exclude = slices.Sorted(maps.Keys(v))
		}
		s.Env = append(slices.Clone(s.Env), fixtureToolEnv(dir)...)
		r, err := command.New(s, command.WithSandbox(dir))
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

// addCommandGates reads the tiers' command sections and adds a gate for each
// command a config defines.
func (e *Engine) addCommandGates(ctx context.Context, tiers []*config.File) error {
	taken := func(name string) (string, bool) {
		if g := e.byName[name]; g != nil {
			return "the gate " + g.Dir, true
		}
		if _, ok := e.runners.Get(name); ok || name == NamespaceRequest || slices.Contains(reservedNamespaces, name) {
			return "the facts namespace " + name, true
		}
		if e.isCommand(name) {
			return "the built-in command gate " + name, true
		}
		return "", false
	}
	cs, err := config.ResolveCommands(tiers, taken)
	if err != nil {
		return err
	}
	e.cmds = cs
	if len(cs.Team) == 0 {
		return nil
	}
	gc, err := loadGenericCommand(ctx)
	if err != nil {
		return fmt.Errorf("%w: the generic command policy: %v", ErrBundle, err)
	}
	for _, c := range cs.Team {
		g := commandGate(c, gc)
		e.gates = append(e.gates, g)
		e.byName[g.Name] = g
	}
	gate.SortGates(e.gates)
	return nil
}

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
