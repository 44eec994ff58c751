package engine

import (
	"errors"
	"fmt"
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
	keyCommands      = "commands"
	keyAllowlist     = "command_allowlist"
	keyAllowCommands = "allow_commands"
	keyPython        = "python"
)

// maxCommandTimeout bounds a configured timeout: a gate that may hang for
// longer is a gate nobody waits for.
const maxCommandTimeout = 2 * time.Hour

// commandGate is a command gate a config tier defines.
type commandGate struct {
	spec        command.Spec
	tier        *tierFile
	severity    string
	triggers    []string
	description string
}

// commandSetup is what the config tiers say about command gates.
type commandSetup struct {
	allow      [][]string // argv prefixes a project's command may start with
	python     string     // interpreter for the built-in pytest gate; "" = command.Python()
	pythonTier *tierFile  // the tier that set python
	team       []*commandGate
}

// resolveCommands reads the command sections of every tier. taken reports
// whether a name is already a gate or a namespace, which a command gate may
// not shadow. Every problem is an ErrConfig diagnostic naming file, line and
// key; nothing is half-applied.
func resolveCommands(tiers []*tierFile, taken func(string) (string, bool)) (*commandSetup, error) {
	d := &Diagnostics{Kind: ErrConfig}
	cs := &commandSetup{allow: command.DefaultAllowed()}
	byName := map[string]*commandGate{}
	for _, t := range tiers {
		if t == nil {
			continue
		}
		for _, k := range []string{keyAllowlist, keyAllowCommands} {
			if v, ok := t.top[k]; ok {
				cs.readAllowlist(t, k, v, d)
			}
		}
		if t.has[keyPython] {
			if strings.TrimSpace(t.cfg.Python) == "" {
				d.Add(t.display, t.doc.line(keyPython), "%s: want the interpreter's name or path, got %s", keyPython, diag.Describe(t.cfg.Python))
			} else {
				cs.python, cs.pythonTier = t.cfg.Python, t
			}
		}
		for _, name := range sortedKeys(t.cfg.Commands) {
			if c := parseCommand(t, name, t.cfg.Commands[name], taken, d); c != nil {
				byName[name] = c // a higher tier's definition replaces a lower one's
			}
		}
	}
	if cs.python != "" && cs.pythonTier.tier != TierProject {
		cs.allow = append(cs.allow, []string{cs.python, "-m", "pytest"}) // a person's interpreter runs the pytest gate as theirs
	}
	if cs.python != "" && cs.pythonTier.tier == TierProject && !command.AllowedArgv([]string{cs.python, "-m", "pytest"}, cs.allow) {
		d.Add(cs.pythonTier.display, cs.pythonTier.doc.line(keyPython),
			"%s: refused: `%s -m pytest` starts with no allowed command [%s]; only the user or managed tier may allow it (%q: [[%q, \"-m\", \"pytest\"]])",
			keyPython, cs.python, command.FormatAllowed(cs.allow), keyAllowCommands, cs.python)
	}
	for _, name := range sortedKeys(byName) {
		c := byName[name]
		if _, err := command.New(c.spec, command.WithAllowed(cs.allowFor(c)...)); err != nil {
			cs.refuse(c, err, d)
			continue
		}
		cs.team = append(cs.team, c)
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	return cs, nil
}

// allowFor is what c's command is checked against: a command the user or
// managed tier defines is trusted as written; a project's must start with
// an allowed prefix.
func (cs *commandSetup) allowFor(c *commandGate) [][]string {
	if c.tier.tier == TierProject {
		return cs.allow
	}
	return append(slices.Clone(cs.allow), c.spec.Argv)
}

// readAllowlist reads key k of tier t: "command_allowlist" lists
// executables (each a one-item prefix), "allow_commands" argv prefixes.
func (cs *commandSetup) readAllowlist(t *tierFile, k string, v any, d *Diagnostics) {
	line := t.doc.line(k)
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
		} else if items, isList := e.([]any); isList && k == keyAllowCommands {
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
		case !slices.ContainsFunc(cs.allow, func(p []string) bool { return slices.Equal(p, prefix) }):
			cs.allow = append(cs.allow, prefix)
		}
	}
}

// refuse words a spec command.New rejected as a config diagnostic.
func (cs *commandSetup) refuse(c *commandGate, err error, d *Diagnostics) {
	name := c.spec.Name
	line := c.tier.doc.line(keyCommands, name, "argv")
	switch {
	case errors.Is(err, command.ErrNotAllowed) && !command.AllowedArgv(c.spec.Argv, cs.allowFor(c)):
		d.Add(c.tier.display, line, "%s.%s.argv: refused: `%s` starts with no allowed command [%s]; a committed project config may not choose "+
			"which programs run: a person allows it in the user or managed tier (%q: [%s] in ~/.tausik/config.json)",
			keyCommands, name, strings.Join(c.spec.Argv, " "), command.FormatAllowed(cs.allow), keyAllowCommands, quoteList(suggestPrefix(c.spec.Argv)))
	case errors.Is(err, command.ErrMetachar):
		d.Add(c.tier.display, line, "%s.%s.argv: %v", keyCommands, name, err)
	default:
		d.Add(c.tier.display, c.tier.doc.line(keyCommands, name), "%s.%s: %v", keyCommands, name, err)
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
func parseCommand(t *tierFile, name string, v any, taken func(string) (string, bool), d *Diagnostics) *commandGate {
	obj := cfgObject{t: t, path: []string{keyCommands, name}, d: d}
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
	c := &commandGate{tier: t, severity: gate.SeverityBlock, triggers: canonicalTriggers(e.Triggers),
		spec: command.Spec{Name: name, Argv: e.Argv, Extensions: e.Extensions, Parser: command.Parser(e.Parser)}}
	for _, x := range e.Exclude { // gitignore's reading, as before paths became patterns
		c.spec.Exclude = append(c.spec.Exclude, pathpat.FromLegacy(pathpat.LegacyGitignore, x)...)
	}
	for _, tr := range e.Triggers {
		if !slices.Contains(gate.Triggers, tr) {
			obj.bad("triggers", "unknown trigger %q (known: %s)", tr, strings.Join(gate.Triggers, ", "))
		}
	}
	switch {
	case !has["severity"]:
	case e.Severity == gate.SeverityBlock || e.Severity == gate.SeverityWarn:
		c.severity = e.Severity
	default:
		obj.bad("severity", "want \"block\" or \"warn\", got %s", diag.Describe(o["severity"]))
	}
	if has["description"] && len(strings.TrimSpace(e.Description)) < 10 {
		obj.bad("description", "want a sentence (at least 10 characters), got %s", diag.Describe(o["description"]))
	}
	c.description = strings.TrimSpace(e.Description)
	if has["parser"] && e.Parser == "" {
		obj.bad("parser", "want one of ruff, pytest, mypy, bandit, lines, got %s", diag.Describe(o["parser"]))
	}
	if has["timeout"] {
		c.spec.Timeout = parseTimeout(obj, "timeout", e.Timeout, o["timeout"])
	}
	for _, k := range sortedKeys(e.Env) {
		c.spec.Env = append(c.spec.Env, k+"="+e.Env[k])
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

// Allowlist returns the argv prefixes a project's command may start with:
// the built-in gates' commands, the operator's TAUSIK_PYTHON -m pytest, and
// what the user and managed tiers added.
func (e *Engine) Allowlist() [][]string {
	if e.cmds == nil {
		return command.DefaultAllowed()
	}
	return slices.Clone(e.cmds.allow)
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
