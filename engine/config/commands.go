package config

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/internal/pathpat"
	"github.com/tausik/tausik/runners/command"
)

// Config keys for command gates (docs/command-gates.md). A team defines its
// own command gate under "commands"; the commands a project's command may
// run are argv prefixes: the built-in gates' (`ruff check`, `python3 -m
// pytest`, `go vet`…) plus "allow_commands" (prefixes) and
// "command_allowlist" (executables, any arguments), which only the user and
// managed tiers may set: a committed project config must not be able to
// choose which programs tausik runs on a developer's machine or in CI.
const (
	KeyCommands      = "commands"
	keyAllowlist     = "command_allowlist"
	KeyAllowCommands = "allow_commands"
	KeyPython        = "python"
)

// maxCommandTimeout bounds a configured timeout: a gate that may hang for
// longer is a gate nobody waits for.
const maxCommandTimeout = 2 * time.Hour

// CommandGate is a command gate a config tier defines.
type CommandGate struct {
	Spec        command.Spec // what the runner runs
	Tier        *File        // the tier that defines it
	Severity    string
	Triggers    []string
	Description string
}

// Commands is what the config tiers say about command gates.
type Commands struct {
	Allow      [][]string     // argv prefixes a project's command may start with
	Python     string         // interpreter for the built-in pytest gate; "" = command.Python()
	PythonTier *File          // the tier that set python
	Team       []*CommandGate // the team command gates, by name
	// NoCache keeps the stack gates' runs out of the fact cache: a tier
	// said "command_cache": false, or TAUSIK_COMMAND_CACHE is off.
	NoCache bool
}

// KeyCommandCache is the config key that, false in any tier, runs every
// stack gate's tool on every evaluation. Any tier may turn the cache off
// (it only makes results fresher); none can force it on.
const KeyCommandCache = "command_cache"

// EnvCommandCache turns the stack gates' run cache off for one process or
// CI job: off, false, no or 0 (on, true, yes, 1 or empty leave it on).
const EnvCommandCache = "TAUSIK_COMMAND_CACHE"

// commandCacheOff reads the tiers' command_cache keys and
// TAUSIK_COMMAND_CACHE into cs.
func (cs *Commands) commandCacheOff(tiers []*File, d *diag.Diagnostics) {
	for _, t := range tiers {
		if t != nil && t.has[KeyCommandCache] && !t.cfg.CommandCache {
			cs.NoCache = true
		}
	}
	switch v := strings.ToLower(strings.TrimSpace(os.Getenv(EnvCommandCache))); v {
	case "", "on", "true", "yes", "1":
	case "off", "false", "no", "0":
		cs.NoCache = true
	default:
		d.Add(EnvCommandCache, 0, "want off or on, got %q", v)
	}
}

// ResolveCommands reads the command sections of every tier. taken reports
// whether a name is already a gate or a namespace, which a command gate may
// not shadow. Every problem is an diag.ErrConfig diagnostic naming file, line and
// key; nothing is half-applied.
func ResolveCommands(tiers []*File, taken func(string) (string, bool)) (*Commands, error) {
	d := &diag.Diagnostics{Kind: diag.ErrConfig}
	cs := &Commands{Allow: command.DefaultAllowed()}
	byName := map[string]*CommandGate{}
	for _, t := range tiers {
		if t == nil {
			continue
		}
		for _, k := range []string{keyAllowlist, KeyAllowCommands} {
			if v, ok := t.top[k]; ok {
				cs.readAllowlist(t, k, v, d)
			}
		}
		if t.has[KeyPython] {
			if strings.TrimSpace(t.cfg.Python) == "" {
				d.Add(t.display, t.doc.Line(KeyPython), "%s: want the interpreter's name or path, got %s", KeyPython, diag.Describe(t.cfg.Python))
			} else {
				cs.Python, cs.PythonTier = t.cfg.Python, t
			}
		}
		for _, name := range sortedKeys(t.cfg.Commands) {
			if c := parseCommand(t, name, t.cfg.Commands[name], taken, d); c != nil {
				byName[name] = c // a higher tier's definition replaces a lower one's
			}
		}
	}
	if cs.Python != "" && cs.PythonTier.tier != TierProject {
		cs.Allow = append(cs.Allow, []string{cs.Python, "-m", "pytest"}) // a person's interpreter runs the pytest gate as theirs
	}
	if cs.Python != "" && cs.PythonTier.tier == TierProject && !command.AllowedArgv([]string{cs.Python, "-m", "pytest"}, cs.Allow) {
		d.Add(cs.PythonTier.display, cs.PythonTier.doc.Line(KeyPython),
			"%s: refused: `%s -m pytest` starts with no allowed command [%s]; only the user or managed tier may allow it (%q: [[%q, \"-m\", \"pytest\"]])",
			KeyPython, cs.Python, command.FormatAllowed(cs.Allow), KeyAllowCommands, cs.Python)
	}
	cs.commandCacheOff(tiers, d)
	for _, name := range sortedKeys(byName) {
		c := byName[name]
		if _, err := command.New(c.Spec, command.WithAllowed(cs.AllowFor(c)...)); err != nil {
			cs.refuse(c, err, d)
			continue
		}
		cs.Team = append(cs.Team, c)
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	return cs, nil
}

// AllowFor is what c's command is checked against: a command the user or
// managed tier defines is trusted as written; a project's must start with
// an allowed prefix.
func (cs *Commands) AllowFor(c *CommandGate) [][]string {
	if c.Tier.tier == TierProject {
		return cs.Allow
	}
	return append(slices.Clone(cs.Allow), c.Spec.Argv)
}

// readAllowlist reads key k of tier t: "command_allowlist" lists
// executables (each a one-item prefix), "allow_commands" argv prefixes.
func (cs *Commands) readAllowlist(t *File, k string, v any, d *diag.Diagnostics) {
	line := t.doc.Line(k)
	if t.tier == TierProject {
		d.Add(t.display, line, "%s: refused: only the user or managed tier may allow commands; "+
			"a committed project config must not choose which programs tausik runs (move it to ~/.tausik/config.json)", k)
		return
	}
	list, ok := v.([]any)
	if !ok {
		d.Add(t.display, line, "%s: want a list, got %s", k, diag.Describe(v))
		return
	}
	word := func(e any) (string, bool) {
		s, ok := e.(string)
		return s, ok && strings.TrimSpace(s) != "" && !strings.ContainsAny(s, "\x00\n")
	}
	for i, e := range list {
		var prefix []string
		if s, ok := word(e); ok && k == keyAllowlist {
			prefix = []string{s}
		} else if items, isList := e.([]any); isList && k == KeyAllowCommands {
			for _, it := range items {
				if s, ok := word(it); ok {
					prefix = append(prefix, s)
				}
			}
			if len(prefix) != len(items) {
				prefix = nil
			}
		}
		switch {
		case len(prefix) == 0 && k == keyAllowlist:
			d.Add(t.display, line, "%s[%d]: want an executable name or path, got %s", k, i, diag.Describe(e))
		case len(prefix) == 0:
			d.Add(t.display, line, "%s[%d]: want an argv prefix, a non-empty list of strings ([\"python3\", \"tools/lint.py\"]), got %s", k, i, diag.Describe(e))
		case !slices.ContainsFunc(cs.Allow, func(p []string) bool { return slices.Equal(p, prefix) }):
			cs.Allow = append(cs.Allow, prefix)
		}
	}
}

// refuse words a spec command.New rejected as a config diagnostic.
func (cs *Commands) refuse(c *CommandGate, err error, d *diag.Diagnostics) {
	name := c.Spec.Name
	line := c.Tier.doc.Line(KeyCommands, name, "argv")
	switch {
	case errors.Is(err, command.ErrNotAllowed) && !command.AllowedArgv(c.Spec.Argv, cs.AllowFor(c)):
		d.Add(c.Tier.display, line, "%s.%s.argv: refused: `%s` starts with no allowed command [%s]; a committed project config may not choose "+
			"which programs run: a person allows it in the user or managed tier (%q: [%s] in ~/.tausik/config.json)",
			KeyCommands, name, strings.Join(c.Spec.Argv, " "), command.FormatAllowed(cs.Allow), KeyAllowCommands, quoteList(suggestPrefix(c.Spec.Argv)))
	case errors.Is(err, command.ErrMetachar):
		d.Add(c.Tier.display, line, "%s.%s.argv: %v", KeyCommands, name, err)
	default:
		d.Add(c.Tier.display, c.Tier.doc.Line(KeyCommands, name), "%s.%s: %v", KeyCommands, name, err)
	}
}

// commandEntry is one "commands" entry as a config file writes it.
type commandEntry struct {
	Argv        []string          `cfg:"argv"`
	Description string            `cfg:"description" want:"a sentence (at least 10 characters)"`
	Env         map[string]string `cfg:"env"`
	Exclude     []string          `cfg:"exclude"`
	Extensions  []string          `cfg:"extensions"`
	Parser      string            `cfg:"parser" want:"one of ruff, pytest, mypy, bandit, lines"`
	Severity    string            `cfg:"severity" want:"\"block\" or \"warn\""`
	Timeout     string            `cfg:"timeout" want:"a positive duration (\"90s\", \"5m\")"`
	Triggers    []string          `cfg:"triggers"`
}

// parseCommand reads one "commands" entry; nil when it is malformed.
func parseCommand(t *File, name string, v any, taken func(string) (string, bool), d *diag.Diagnostics) *CommandGate {
	obj := cfgObject{t: t, path: []string{KeyCommands, name}, d: d}
	n0 := len(d.Items)
	if !gate.NameRE().MatchString(name) {
		obj.bad("", "a command gate's name must match %s", gate.NameRE())
	} else if by, ok := taken(name); ok {
		obj.bad("", "the name is taken by %s; pick another", by)
	}
	var e commandEntry
	has, _ := obj.decode(v, &e, "an object {argv, triggers, …}")
	if has == nil {
		return nil
	}
	o := v.(map[string]any)
	for i, list := range [][]string{e.Argv, e.Triggers} {
		k := []string{"argv", "triggers"}[i]
		if _, seen := has[k]; !seen {
			obj.bad("", "%s is required", k)
		} else if has[k] && len(list) == 0 {
			obj.bad(k, "want a non-empty list of strings, got %s", diag.Describe(o[k]))
		}
	}
	c := &CommandGate{Tier: t, Severity: gate.SeverityBlock, Triggers: CanonicalTriggers(e.Triggers),
		Spec: command.Spec{Name: name, Argv: e.Argv, Extensions: e.Extensions, Parser: command.Parser(e.Parser)}}
	for _, x := range e.Exclude { // gitignore's reading, as before paths became patterns
		c.Spec.Exclude = append(c.Spec.Exclude, pathpat.FromLegacy(pathpat.LegacyGitignore, x)...)
	}
	for _, tr := range e.Triggers {
		if !slices.Contains(gate.Triggers, tr) {
			obj.bad("triggers", "unknown trigger %q (known: %s)", tr, strings.Join(gate.Triggers, ", "))
		}
	}
	switch {
	case !has["severity"]:
	case e.Severity == gate.SeverityBlock || e.Severity == gate.SeverityWarn:
		c.Severity = e.Severity
	default:
		obj.bad("severity", "want \"block\" or \"warn\", got %s", diag.Describe(o["severity"]))
	}
	if has["description"] && len(strings.TrimSpace(e.Description)) < 10 {
		obj.bad("description", "want a sentence (at least 10 characters), got %s", diag.Describe(o["description"]))
	}
	c.Description = strings.TrimSpace(e.Description)
	if has["parser"] && e.Parser == "" {
		obj.bad("parser", "want one of ruff, pytest, mypy, bandit, lines, got %s", diag.Describe(o["parser"]))
	}
	if has["timeout"] {
		c.Spec.Timeout = parseTimeout(obj, "timeout", e.Timeout, o["timeout"])
	}
	for _, k := range sortedKeys(e.Env) {
		c.Spec.Env = append(c.Spec.Env, k+"="+e.Env[k])
	}
	if len(d.Items) > n0 {
		return nil
	}
	return c
}

// parseTimeout checks a configured timeout s (raw as written) of member k.
func parseTimeout(obj cfgObject, k, s string, raw any) time.Duration {
	dur, err := time.ParseDuration(s)
	if err != nil || dur <= 0 || dur > maxCommandTimeout {
		obj.bad(k, "want a positive duration up to %s (\"90s\", \"5m\"), got %s", maxCommandTimeout, diag.Describe(raw))
	}
	return dur
}

// suggestPrefix is the prefix a refusal suggests allowing: argv up to its
// first placeholder or option.
func suggestPrefix(argv []string) []string {
	for i, a := range argv {
		if i > 0 && (strings.HasPrefix(a, "-") || strings.Contains(a, "{")) {
			return argv[:i]
		}
	}
	return argv
}

// quoteList renders list as a JSON array: ["python3", "tools/lint.py"].
func quoteList(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
