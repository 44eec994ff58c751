package config

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/internal/hosts/formats"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/command"
	"github.com/tausik/tausik/runners/hosts"
)

// keyGenerators is the config section of host generators (docs/host-gates.md):
// {"<host>": {"argv": [...], "format": F}}.
const keyGenerators = "generators"

// BootstrapDriftGate is the gate whose param "profiles" names the deployed
// copies the hosts runner compares with their source.
const BootstrapDriftGate = "bootstrap_drift"

var hostNameRE = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,30}$`)

// resolveGenerators reads the generators sections of every tier; a higher
// tier's entry for a host replaces a lower one's. A generator runs a
// program, so it lives under the command gates' rules: its argv is checked
// as theirs is, and a project tier's executable must be tausik itself
// ({tausik}) or on the allow-list only the user and managed tiers extend.
func resolveGenerators(tiers []*File, cs *Commands) ([]hosts.Generator, error) {
	d := &diag.Diagnostics{Kind: diag.ErrConfig}
	byHost := map[string]hosts.Generator{}
	for _, t := range tiers {
		if t == nil {
			continue
		}
		for _, host := range sortedKeys(t.cfg.Generators) {
			if g, ok := parseGenerator(t, host, t.cfg.Generators[host], cs, d); ok {
				byHost[host] = g
			}
		}
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	out := make([]hosts.Generator, 0, len(byHost))
	for _, host := range sortedKeys(byHost) {
		out = append(out, byHost[host])
	}
	return out, nil
}

// generatorEntry is one "generators" entry as a config file writes it.
type generatorEntry struct {
	Argv    []string          `cfg:"argv" want:"a non-empty list of strings"`
	Events  map[string]string `cfg:"events" want:"an object mapping the host's names onto canonical ones" elem:"a canonical name"`
	Format  string            `cfg:"format"`
	Profile string            `cfg:"profile" want:"a project-relative directory (\".claude\")"`
	Timeout string            `cfg:"timeout" want:"a positive duration (\"90s\", \"5m\")"`
	Tools   map[string]string `cfg:"tools" want:"an object mapping the host's names onto canonical ones" elem:"a canonical name"`
}

// parseGenerator reads one host's entry; ok is false when it is malformed or
// refused, with the reason added to d.
func parseGenerator(t *File, host string, v any, cs *Commands, d *diag.Diagnostics) (hosts.Generator, bool) {
	key := keyGenerators + "." + host
	obj := cfgObject{t: t, path: []string{keyGenerators, host}, d: d}
	n0 := len(d.Items)
	g := hosts.Generator{Host: host, Table: formats.Table{Tools: map[string]string{}, Events: map[string]string{}}}
	if !hostNameRE.MatchString(host) {
		obj.bad("", "a host's name must match %s", hostNameRE)
	}
	var e generatorEntry
	has, _ := obj.decode(v, &e, "an object {argv, format}")
	if has == nil {
		return g, false
	}
	o := v.(map[string]any)
	if _, seen := has["argv"]; !seen || has["argv"] && len(e.Argv) == 0 {
		obj.bad("argv", "want a non-empty list of strings, got %s", diag.Describe(o["argv"]))
	}
	g.Argv, g.Format, g.Profile = e.Argv, e.Format, e.Profile
	if _, known := hosts.Known[host]; !has["format"] && !known {
		obj.bad("format", "required for a host tausik does not know (one of %s)", strings.Join(formats.Names, ", "))
	} else if has["format"] && !slices.Contains(formats.Names, g.Format) {
		obj.bad("format", "want one of %s, got %s", strings.Join(formats.Names, ", "), diag.Describe(o["format"]))
	}
	if has["profile"] && (!filepath.IsLocal(g.Profile) || strings.Contains(g.Profile, `\`)) {
		obj.bad("profile", "want a project-relative directory (\".claude\"), got %s", diag.Describe(o["profile"]))
	}
	if has["timeout"] {
		g.Timeout = parseTimeout(obj, "timeout", e.Timeout, o["timeout"])
	}
	for i, m := range []map[string]string{e.Tools, e.Events} {
		for _, name := range sortedKeys(m) {
			if m[name] == "" {
				obj.bad([]string{"tools", "events"}[i], "%s: want a canonical name, got the string \"\"", name)
			}
		}
	}
	maps.Copy(g.Table.Tools, e.Tools)
	maps.Copy(g.Table.Events, e.Events)
	if len(d.Items) > n0 {
		return g, false
	}
	allow := append(slices.Clone(cs.Allow), []string{hosts.SelfArg})
	if t.tier != TierProject {
		allow = append(allow, g.Argv) // the user's and the organisation's own tiers are trusted as written
	}
	if err := command.CheckArgv("generator "+host, g.Argv, []string{hosts.OutArg, hosts.SelfArg}, allow); err != nil {
		line := t.doc.Line(keyGenerators, host, "argv")
		if errors.Is(err, command.ErrNotAllowed) {
			d.Add(t.display, line, "%s.argv: refused: `%s` is neither %s nor starts with an allowed command [%s]; a committed project config may not "+
				"choose which programs run: a person allows it in the user or managed tier (%q: [%s] in ~/.tausik/config.json)",
				key, strings.Join(g.Argv, " "), hosts.SelfArg, command.FormatAllowed(cs.Allow), KeyAllowCommands, quoteList(suggestPrefix(g.Argv)))
		} else {
			d.Add(t.display, line, "%s.argv: %v", key, err)
		}
		return g, false
	}
	return g, true
}

// SelfPath is the running binary, "" when it cannot be located (a
// generator naming {tausik} then fails, naming why).
func SelfPath() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	return p
}

// copiesParam reads bootstrap_drift's "profiles": {"<source dir>": ["<deployed dir>", ...]}.
func copiesParam(v any) ([]hosts.Copy, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want an object of source directory → deployed directories, got %s", diag.Describe(v))
	}
	var out []hosts.Copy
	for _, src := range sortedKeys(m) {
		c := hosts.Copy{Source: src}
		list, _ := m[src].([]any)
		for _, x := range list {
			if s, isStr := x.(string); isStr && filepath.IsLocal(s) {
				c.Targets = append(c.Targets, s)
			}
		}
		if !filepath.IsLocal(src) || len(list) == 0 || len(c.Targets) != len(list) {
			return nil, fmt.Errorf("%s: want a project-relative source directory and a non-empty list of project-relative deployed directories", src)
		}
		out = append(out, c)
	}
	return out, nil
}

// FixtureHosts returns the hosts runner for a tree/ fixture copied to dir:
// the generators its own tausik/gates.json defines, judged as a project
// tier is but by executable (fixtureAllowed; nothing from this machine's
// user tier), and the copies params name.
func FixtureHosts(params map[string]any, dir string) (runners.Runner, error) {
	t, err := Load(TierProject, filepath.Join(dir, "tausik", "gates.json"), "tree/tausik/gates.json", false)
	if err != nil {
		return nil, err
	}
	gens, err := resolveGenerators([]*File{t}, &Commands{Allow: fixtureAllowed()})
	if err != nil {
		return nil, err
	}
	copies, err := copiesParam(params["profiles"])
	if err != nil {
		return nil, err
	}
	return hosts.New(gens, hosts.WithSelf(SelfPath()), hosts.WithCopies(copies), hosts.WithSandbox(dir)), nil
}

// fixtureAllowed is what a fixture tree's generators may run: the
// executables of the built-in commands, with any arguments. A fixture's
// generator is the fixture's own code, like the tests its pytest case runs,
// and it runs as they do: in the fixture's temp copy, confined where the
// machine allows (see docs/command-gates.md, "Hermetic fixtures").
func fixtureAllowed() [][]string {
	var out [][]string
	for _, p := range command.DefaultAllowed() {
		if !slices.ContainsFunc(out, func(q []string) bool { return q[0] == p[0] }) {
			out = append(out, p[:1])
		}
	}
	return out
}

// HostSetup reads, for the hosts runner, the generators the tiers define
// and bootstrap_drift's effective "profiles" param (drift; nil when that
// gate is not loaded).
func HostSetup(tiers []*File, cs *Commands, drift *Effective) ([]hosts.Generator, []hosts.Copy, error) {
	gens, err := resolveGenerators(tiers, cs)
	if err != nil || drift == nil {
		return gens, nil, err
	}
	copies, err := copiesParam(drift.Params["profiles"])
	if err != nil {
		file, line := "gate defaults", 0
		if f, l, ok := ParamSetter(tiers, BootstrapDriftGate, drift, "profiles"); ok {
			file, line = f, l
		}
		d := &diag.Diagnostics{Kind: diag.ErrConfig}
		d.Add(file, line, "gates.%s.params.profiles: %v", BootstrapDriftGate, err)
		return nil, nil, d
	}
	return gens, copies, nil
}
