package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/command"
	"github.com/tausik/tausik/runners/hosts"
	"github.com/tausik/tausik/runners/hosts/formats"
)

// keyGenerators is the config section of host generators (docs/host-gates.md):
// {"<host>": {"argv": [...], "format": F}}.
const keyGenerators = "generators"

// generatorKeys are the keys of one "generators" entry.
var generatorKeys = []string{"argv", "events", "format", "profile", "timeout", "tools"}

// BootstrapDriftGate is the gate whose param "profiles" names the deployed
// copies the hosts runner compares with their source.
const BootstrapDriftGate = "bootstrap_drift"

var hostNameRE = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,30}$`)

// resolveGenerators reads the generators sections of every tier; a higher
// tier's entry for a host replaces a lower one's. A generator runs a
// program, so it lives under the command gates' rules: its argv is checked
// as theirs is, and a project tier's executable must be tausik itself
// ({tausik}) or on the allow-list only the user and managed tiers extend.
func resolveGenerators(tiers []*tierFile, cs *commandSetup) ([]hosts.Generator, error) {
	d := &Diagnostics{Kind: ErrConfig}
	byHost := map[string]hosts.Generator{}
	for _, t := range tiers {
		if t == nil {
			continue
		}
		v, ok := t.top[keyGenerators]
		if !ok {
			continue
		}
		entries, isObj := v.(map[string]any)
		if !isObj {
			d.Add(t.display, t.doc.line(keyGenerators), "%s: want an object of host generators, got %s", keyGenerators, describe(v))
			continue
		}
		for _, host := range sortedKeys(entries) {
			if g, ok := parseGenerator(t, host, entries[host], cs, d); ok {
				byHost[host] = g
			}
		}
	}
	if err := d.err(); err != nil {
		return nil, err
	}
	out := make([]hosts.Generator, 0, len(byHost))
	for _, host := range sortedKeys(byHost) {
		out = append(out, byHost[host])
	}
	return out, nil
}

// parseGenerator reads one host's entry; ok is false when it is malformed or
// refused, with the reason added to d.
func parseGenerator(t *tierFile, host string, v any, cs *commandSetup, d *Diagnostics) (hosts.Generator, bool) {
	key := keyGenerators + "." + host
	n0 := len(d.Items)
	bad := func(k, format string, args ...any) {
		at, what := t.doc.line(keyGenerators, host), key
		if k != "" {
			at, what = t.doc.line(keyGenerators, host, k), key+"."+k
		}
		d.Add(t.display, at, "%s: %s", what, fmt.Sprintf(format, args...))
	}
	g := hosts.Generator{Host: host, Table: formats.Table{Tools: map[string]string{}, Events: map[string]string{}}}
	if !hostNameRE.MatchString(host) {
		bad("", "a host's name must match %s", hostNameRE)
	}
	o, ok := v.(map[string]any)
	if !ok {
		bad("", "want an object {argv, format}, got %s", describe(v))
		return g, false
	}
	for _, k := range sortedKeys(o) {
		if !slices.Contains(generatorKeys, k) {
			bad(k, "unknown key (known: %s)", strings.Join(generatorKeys, ", "))
		}
	}
	list, _ := o["argv"].([]any)
	for _, e := range list {
		if s, isStr := e.(string); isStr {
			g.Argv = append(g.Argv, s)
		}
	}
	if len(list) == 0 || len(g.Argv) != len(list) {
		bad("argv", "want a non-empty list of strings, got %s", describe(o["argv"]))
	}
	g.Format, _ = o["format"].(string)
	if _, known := hosts.Known[host]; g.Format == "" && !known {
		bad("format", "required for a host tausik does not know (one of %s)", strings.Join(formats.Names, ", "))
	} else if g.Format != "" && !slices.Contains(formats.Names, g.Format) {
		bad("format", "want one of %s, got %s", strings.Join(formats.Names, ", "), describe(o["format"]))
	}
	if raw, ok := o["profile"]; ok {
		g.Profile, _ = raw.(string)
		if !filepath.IsLocal(g.Profile) || strings.Contains(g.Profile, `\`) {
			bad("profile", "want a project-relative directory (\".claude\"), got %s", describe(raw))
		}
	}
	if raw, ok := o["timeout"]; ok {
		s, _ := raw.(string)
		dur, err := time.ParseDuration(s)
		if err != nil || dur <= 0 || dur > maxCommandTimeout {
			bad("timeout", "want a positive duration up to %s (\"90s\", \"5m\"), got %s", maxCommandTimeout, describe(raw))
		}
		g.Timeout = dur
	}
	for _, k := range []string{"tools", "events"} {
		raw, ok := o[k]
		if !ok {
			continue
		}
		m, isObj := raw.(map[string]any)
		if !isObj {
			bad(k, "want an object mapping the host's names onto canonical ones, got %s", describe(raw))
			continue
		}
		for name, c := range m {
			s, isStr := c.(string)
			if !isStr || s == "" {
				bad(k, "%s: want a canonical name, got %s", name, describe(c))
				continue
			}
			if k == "tools" {
				g.Table.Tools[name] = s
			} else {
				g.Table.Events[name] = s
			}
		}
	}
	if len(d.Items) > n0 {
		return g, false
	}
	allow := append(slices.Clone(cs.allow), []string{hosts.SelfArg})
	if t.tier != TierProject {
		allow = append(allow, g.Argv) // the user's and the organisation's own tiers are trusted as written
	}
	if err := command.CheckArgv("generator "+host, g.Argv, []string{hosts.OutArg, hosts.SelfArg}, allow); err != nil {
		line := t.doc.line(keyGenerators, host, "argv")
		if errors.Is(err, command.ErrNotAllowed) {
			d.Add(t.display, line, "%s.argv: refused: `%s` is neither %s nor starts with an allowed command [%s]; a committed project config may not "+
				"choose which programs run: a person allows it in the user or managed tier (%q: [%s] in ~/.tausik/config.json)",
				key, strings.Join(g.Argv, " "), hosts.SelfArg, command.FormatAllowed(cs.allow), keyAllowCommands, quoteList(suggestPrefix(g.Argv)))
		} else {
			d.Add(t.display, line, "%s.argv: %v", key, err)
		}
		return g, false
	}
	return g, true
}

// registerHosts configures the hosts runner from the generators the tiers
// define and bootstrap_drift's effective "profiles" param.
func (e *Engine) registerHosts(tiers []*tierFile) error {
	gens, err := resolveGenerators(tiers, e.cmds)
	if err != nil {
		return err
	}
	var copies []hosts.Copy
	if eff, ok := e.eff[BootstrapDriftGate]; ok {
		if copies, err = copiesParam(eff.Params["profiles"]); err != nil {
			file, line := "gate defaults", 0
			if f, l, ok := paramSetter(tiers, BootstrapDriftGate, eff, "profiles"); ok {
				file, line = f, l
			}
			d := &Diagnostics{Kind: ErrConfig}
			d.Add(file, line, "gates.%s.params.profiles: %v", BootstrapDriftGate, err)
			return d
		}
	}
	opts := []hosts.Option{hosts.WithSelf(selfPath()), hosts.WithCopies(copies)}
	if id, ok := binaryIdentity(); ok && e.store != nil {
		opts = append(opts, hosts.WithCache(e.store, id))
	}
	e.runners = e.runners.With(hosts.New(gens, opts...))
	return nil
}

// selfPath is the running binary, "" when it cannot be located (a
// generator naming {tausik} then fails, naming why).
func selfPath() string {
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
		return nil, fmt.Errorf("want an object of source directory → deployed directories, got %s", describe(v))
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

// fixtureHosts returns the hosts runner for a tree/ fixture copied to dir:
// the generators its own tausik/gates.json defines, judged as a project
// tier is but by executable (fixtureAllowed; nothing from this machine's
// user tier), and the copies params name.
func fixtureHosts(params map[string]any, dir string) (runners.Runner, error) {
	t, err := loadTier(TierProject, filepath.Join(dir, "tausik", "gates.json"), "tree/tausik/gates.json", false)
	if err != nil {
		return nil, err
	}
	gens, err := resolveGenerators([]*tierFile{t}, &commandSetup{allow: fixtureAllowed()})
	if err != nil {
		return nil, err
	}
	copies, err := copiesParam(params["profiles"])
	if err != nil {
		return nil, err
	}
	return hosts.New(gens, hosts.WithSelf(selfPath()), hosts.WithCopies(copies), hosts.WithSandbox(dir)), nil
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
