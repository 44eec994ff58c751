package engine

import (
	"context"
	"os"
	"slices"

	"github.com/tausik/tausik/engine/commandgate"
	"github.com/tausik/tausik/engine/verdictcache"

	"github.com/tausik/tausik/engine/config"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/runners/command"
	"github.com/tausik/tausik/runners/hosts"
	"github.com/tausik/tausik/runners/mcpsurface"
)

// registerMCPSurface configures the mcp runner from mcp_surface's
// effective "server" param (see config.MCPServer).
func (e *Engine) registerMCPSurface(tiers []*config.File) error {
	eff, ok := e.eff[config.MCPSurfaceGate]
	if !ok {
		return nil
	}
	argv, self, err := config.MCPServer(tiers, eff, e.Allowlist())
	if err != nil || len(argv) == 0 {
		return err
	}
	var opts []mcpsurface.Option
	if id, ok := verdictcache.BinaryIdentity(); self && ok && e.store != nil {
		opts = append(opts, mcpsurface.WithFixedServer(e.store, id))
	}
	e.runners = e.runners.With(mcpsurface.New(argv, 0, opts...))
	return nil
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
	if id, ok := verdictcache.BinaryIdentity(); ok && e.store != nil {
		opts = append(opts, hosts.WithCache(e.store, id))
	}
	e.runners = e.runners.With(hosts.New(gens, opts...))
	return nil
}

// refuseLoopholes refuses the path patterns a tier added that would switch
// a gate off unsaid (see config.RefuseLoopholes), keeping the warnings.
func (e *Engine) refuseLoopholes(ctx context.Context) error {
	warnings, err := config.RefuseLoopholes(ctx, e.root, e.gates, e.eff, e.cmds.JudgedBy)
	e.warnings = append(e.warnings, warnings...)
	return err
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
// not put them on (commandgate.Set.KeepOffHooks), builds a runner for every command
// gate from its effective config and adds them to the engine's registry.
func (e *Engine) registerCommands(tiers []*config.File) error {
	e.warnings = append(e.warnings, e.cmds.KeepOffHooks(e.gates, e.eff, tiers)...)
	var opts []command.Option
	if id, ok := verdictcache.BinaryIdentity(); ok && e.store != nil && e.cmds.Cached() {
		opts = append(opts, command.WithCache(e.store, id))
	}
	rs, err := e.cmds.Runners(e.gates, e.eff, tiers, e.Python(), opts...)
	if err != nil {
		return err
	}
	e.runners = e.runners.With(rs...)
	return nil
}
