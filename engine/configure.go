package engine

import (
	"context"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/tausik/tausik/engine/commandgate"

	"github.com/tausik/tausik/engine/config"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/runners/command"
	"github.com/tausik/tausik/runners/hosts"
	"github.com/tausik/tausik/runners/mcpsurface"
)

// MCPSurfaceGate is the gate whose param "server" names the MCP server the
// mcp runner starts.
const MCPSurfaceGate = "mcp_surface"

// SelfExecutable in a server argv stands for the running tausik binary, so a
// repository can ratchet tausik's own MCP surface without allow-listing
// anything.
const SelfExecutable = "{tausik}"

// registerMCPSurface configures the mcp runner from mcp_surface's effective
// "server" param. Starting a server runs a program, so, as for command gates,
// its executable must be tausik itself or on the allow-list that only the user
// and managed tiers can extend.
func (e *Engine) registerMCPSurface(tiers []*config.File) error {
	g, ok := e.byName[MCPSurfaceGate]
	if !ok {
		return nil
	}
	argv := stringsOf(e.eff[g.Name].Params["server"])
	if len(argv) == 0 {
		return nil
	}
	var opts []mcpsurface.Option
	switch {
	case argv[0] == SelfExecutable:
		self, err := os.Executable()
		if err != nil {
			return fmt.Errorf("%w: locate the tausik binary for %s: %v", ErrConfig, SelfExecutable, err)
		}
		argv = append([]string{self}, argv[1:]...)
		if id, ok := binaryIdentity(); ok && e.store != nil {
			opts = append(opts, mcpsurface.WithFixedServer(e.store, id))
		}
	case !command.AllowedArgv(argv, e.Allowlist()):
		file, line := "gate defaults", 0
		if f, l, ok := config.ParamSetter(tiers, g.Name, e.eff[g.Name], "server"); ok {
			file, line = f, l
		}
		d := &Diagnostics{Kind: ErrConfig}
		d.Add(file, line, "gates.%s.params.server: `%s` is neither %s nor starts with an allowed command (%s); add its prefix to %s in the user or managed tier",
			g.Name, strings.Join(argv, " "), SelfExecutable, command.FormatAllowed(e.Allowlist()), config.KeyAllowCommands)
		return d
	}
	e.runners = e.runners.With(mcpsurface.New(argv, 0, opts...))
	return nil
}

func stringsOf(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Limits returns the limits that bound each gate's evaluation for trigger,
// after every tier was applied.
func (e *Engine) Limits(trigger string) policy.Limits {
	class := config.LimitsClass(trigger)
	if l, ok := e.limits[class]; ok {
		return l
	}
	return policy.DefaultLimits()[class]
}

// ConfigFiles returns the configuration files the engine was built from,
// lowest tier first (project, user, managed); a tier without a file is
// absent.
func (e *Engine) ConfigFiles() []config.ConfigFile {
	return e.config.Files()
}

// SetAt returns where a tier set key ("enabled", "severity", "triggers" or
// "params.NAME") of gate's effective configuration; ok is false when the
// key holds the gate's own default.
func (e *Engine) SetAt(gate, key string) (config.Origin, bool) {
	return e.config.SetAt(gate, key)
}

// Allowlist returns the argv prefixes a project's command may start with:
// the built-in gates' commands, the operator's TAUSIK_PYTHON -m pytest, and
// what the user and managed tiers added.
func (e *Engine) Allowlist() [][]string {
	if e.cmds.Config() == nil {
		return command.DefaultAllowed()
	}
	return slices.Clone(e.cmds.Config().Allow)
}

// registerHosts configures the hosts runner from the generators the tiers
// define and bootstrap_drift's effective "profiles" param.
func (e *Engine) registerHosts(tiers []*config.File) error {
	gens, copies, err := config.HostSetup(tiers, e.cmds.Config(), e.eff[config.BootstrapDriftGate])
	if err != nil {
		return err
	}
	opts := []hosts.Option{hosts.WithSelf(config.SelfPath()), hosts.WithCopies(copies)}
	if id, ok := binaryIdentity(); ok && e.store != nil {
		opts = append(opts, hosts.WithCache(e.store, id))
	}
	e.runners = e.runners.With(hosts.New(gens, opts...))
	return nil
}

// judgedBy returns which files gate g judges for the loophole check: a
// command gate's and a gate with an extensions param judge their
// extensions, a gate reading the surface namespace Python and Go, any other
// gate every file.
func (e *Engine) judgedBy(g *gate.Gate, params map[string]any) func(string) bool {
	var exts []string
	if spec, ok := e.cmds.SpecFor(g, params); ok {
		exts = spec.Extensions
	} else if v, ok := params["extensions"].([]any); ok {
		exts = stringsOf(v)
	} else if slices.Contains(g.Facts, NamespaceSurface) {
		exts = []string{".py", ".go"}
	}
	if len(exts) == 0 {
		return func(string) bool { return true }
	}
	return func(f string) bool { return slices.Contains(exts, strings.ToLower(path.Ext(f))) }
}

// refuseLoopholes refuses the path patterns a tier added that would switch
// a gate off unsaid (see config.RefuseLoopholes), keeping the warnings.
func (e *Engine) refuseLoopholes(ctx context.Context) error {
	warnings, err := config.RefuseLoopholes(ctx, e.root, e.gates, e.eff, e.judgedBy)
	e.warnings = append(e.warnings, warnings...)
	return err
}

// keepCommandsOffHooks drops hook triggers from command gates that only the
// project tier put there: a project's own command gate, or a project
// override adding the trigger to any command gate. A command gate runs at
// pre-write when its built-in default, its user- or managed-tier definition,
// or a user- or managed-tier "triggers" override says so. Each drop is a
// config warning, reported and logged with every decision.
func (e *Engine) keepCommandsOffHooks(tiers []*config.File) {
	var project *config.File
	for _, t := range tiers {
		if t != nil && t.Tier() == config.TierProject {
			project = t
		}
	}
	for _, g := range e.gates {
		eff := e.eff[g.Name]
		if eff == nil || !e.cmds.Is(g.Name) {
			continue
		}
		if by := eff.SetBy["triggers"]; by == config.TierUser || by == config.TierManaged {
			continue
		}
		tc := e.cmds.Team(g.Name)
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
		eff.Triggers = nonNil(kept)
		file, line, key := "tausik/gates.json", 0, "gates."+g.Name+".triggers"
		switch {
		case eff.SetBy["triggers"] == config.TierProject && project != nil:
			file, line = project.Display(), project.Line("gates", g.Name, "triggers")
		case tc != nil:
			file, line, key = tc.Tier.Display(), tc.Tier.Line(config.KeyCommands, g.Name, "triggers"), config.KeyCommands+"."+g.Name+".triggers"
		}
		e.warnings = append(e.warnings, fmt.Sprintf("%s:%d: %s: %s refused: a command gate runs on an agent's every edit only when "+
			"the user or managed tier says so (gates.%s.triggers there); it runs at its other triggers",
			file, line, key, strings.Join(dropped, ", "), g.Name))
	}
}

// Programs records, with every decision, the files and interpreters that
// chose what ran: the user and managed tiers' config files (as named, ""
// when absent) and the Python interpreter the pytest gate runs, resolved.
type Programs struct {
	UserConfig    string `json:"user_config"`
	ManagedConfig string `json:"managed_config"`
	Python        string `json:"python"`
}

// programsRecord builds the engine's Programs from its config paths.
func (e *Engine) programsRecord(cfg config.Paths) *Programs {
	p := &Programs{Python: config.ResolveProgram(e.Python())}
	if _, err := os.Stat(cfg.User); cfg.User != "" && err == nil {
		p.UserConfig = cfg.User
	}
	if cfg.Managed != "" {
		p.ManagedConfig = cfg.Managed
	}
	return p
}

// addCommandGates reads the tiers' command sections and adds a gate for
// each command a config defines.
func (e *Engine) addCommandGates(ctx context.Context, tiers []*config.File) error {
	taken := func(name string) (string, bool) {
		if g := e.byName[name]; g != nil {
			return "the gate " + g.Dir, true
		}
		if _, ok := e.runners.Get(name); ok || name == NamespaceRequest || commandgate.Reserved(name) {
			return "the facts namespace " + name, true
		}
		if e.cmds.Is(name) {
			return "the built-in command gate " + name, true
		}
		return "", false
	}
	gates, err := e.cmds.Resolve(ctx, tiers, taken)
	if err != nil || len(gates) == 0 {
		return err
	}
	for _, g := range gates {
		e.gates = append(e.gates, g)
		e.byName[g.Name] = g
	}
	gate.SortGates(e.gates)
	return nil
}

// registerCommands keeps command gates off the hooks a person's tier did
// not put them on (keepCommandsOffHooks), builds a runner for every command
// gate from its effective config and adds them to the engine's registry.
func (e *Engine) registerCommands(tiers []*config.File) error {
	e.keepCommandsOffHooks(tiers)
	rs, err := e.cmds.Runners(e.gates, e.eff, tiers, e.Python())
	if err != nil {
		return err
	}
	e.runners = e.runners.With(rs...)
	return nil
}
