package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/internal/app"
)

// Explanation writes what a gate decides, how it is configured and by
// which tier, and its fixtures; or all of it as JSON.
func Explanation(w io.Writer, format string, ex *app.Explanation) error {
	if format == "json" {
		return JSON(w, ex)
	}
	var b strings.Builder
	where := "built-in gate, " + ex.Dir
	if ex.Source != gate.SourceBuiltin {
		where = "team gate in " + ex.Dir
	}
	fmt.Fprintf(&b, "%s (%s; %s, phase %s)\n", ex.Name, where, ex.Language, ex.Phase)
	fmt.Fprintf(&b, "\n%s\n\nprevents: %s\n\n", ex.Description, ex.Prevents)
	renderGateConfig(&b, &ex.GateConfig, "")
	fmt.Fprintf(&b, "facts: %s\n", OrNone(ex.Facts))
	table := ex.Table
	if table == "" {
		table = "in no table"
	}
	fmt.Fprintf(&b, "fixtures (%s):\n", table)
	if len(ex.Cases) == 0 {
		b.WriteString("  (none)\n")
	}
	for _, c := range ex.Cases {
		if c.Error != "" {
			fmt.Fprintf(&b, "  %-28s  does not load: %s\n", c.Name, FirstLine(c.Error))
			continue
		}
		kind := c.Kind
		if c.Base != "" {
			kind += " of " + c.Base
		}
		fmt.Fprintf(&b, "  %-28s  %-14s  %s\n", c.Name, c.Outcome, kind)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// renderGateConfig prints a gate's keys and params with their origins,
// each line after indent.
func renderGateConfig(b *strings.Builder, c *app.GateConfig, indent string) {
	for _, s := range c.Settings {
		fmt.Fprintf(b, "%s%s: %s  (%s; the project may %s)\n", indent, s.Key, plain(s.Value),
			origin(s.SetBy, s.SetAt, plain(s.Default)), mayText(s.ProjectMay))
	}
	if c.SwitchedOff != nil {
		fmt.Fprintf(b, "%sswitched off by %s\n", indent, who(c.SwitchedOff.SetBy, c.SwitchedOff.SetAt))
	}
	if len(c.Params) == 0 {
		fmt.Fprintf(b, "%sparams: (none)\n", indent)
	} else {
		fmt.Fprintf(b, "%sparams:\n", indent)
	}
	for _, p := range c.Params {
		fmt.Fprintf(b, "%s  %s = %s  (%s; %s; the project may %s)\n", indent, p.Name, value(p.Value),
			p.Type, origin(p.SetBy, p.SetAt, value(p.Default)), mayText(p.ProjectMay))
	}
	for _, r := range c.Refused {
		fmt.Fprintf(b, "%srefused: %s\n", indent, r)
	}
}

// origin says where a value came from: "the default", or "set by project
// tausik/gates.json:4, default 500".
func origin(by, at, def string) string {
	if by == app.SetByDefault {
		return "the default"
	}
	return "set by " + who(by, at) + ", default " + def
}

// who names the tier that set a key, with its file and line.
func who(by, at string) string {
	if by == app.SetByDefault {
		return "its gate.yaml"
	}
	return by + " " + at
}

// mayText says what project_may allows, in words.
func mayText(may string) string {
	switch may {
	case "enable":
		return "switch it on, not off"
	case "raise":
		return "raise it, not lower it"
	case "lower":
		return "lower it, not raise it"
	case "add":
		return "add to it, not remove"
	case "set":
		return "set it"
	case "none":
		return "not change it"
	}
	return may
}

// ConfigFiles writes each configuration file found, its digest and what
// it sets; or them as JSON.
func ConfigFiles(w io.Writer, format string, c app.ConfigFiles) error {
	if format == "json" {
		return JSON(w, c)
	}
	var b strings.Builder
	if len(c.Files) == 0 {
		b.WriteString("no configuration file: every gate runs with its built-in defaults\n")
	}
	for i, f := range c.Files {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s  %s  %s\n", f.Tier, f.File, f.Digest)
		fmt.Fprintf(&b, "  sections: %s\n", OrNone(f.Sections))
		for _, s := range f.Sets {
			fmt.Fprintf(&b, "  %s:%d  gates.%s = %s\n", f.File, s.Line, s.Key, value(s.Value))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Effective writes every gate's resolved configuration and where each
// value came from, the refused weakenings and the gates switched off; or
// all of it as JSON.
func Effective(w io.Writer, format string, c app.EffectiveConfig) error {
	if format == "json" {
		return JSON(w, c)
	}
	var b strings.Builder
	for _, gc := range c.Gates {
		fmt.Fprintf(&b, "%s\n", gc.Name)
		renderGateConfig(&b, &gc, "  ")
	}
	b.WriteString("\nrefused weakenings:\n")
	if len(c.Refused) == 0 {
		b.WriteString("  (none)\n")
	}
	for _, r := range c.Refused {
		fmt.Fprintf(&b, "  %s\n", r)
	}
	b.WriteString("\nswitched off:\n")
	if len(c.SwitchedOff) == 0 {
		b.WriteString("  (none)\n")
	}
	for _, s := range c.SwitchedOff {
		fmt.Fprintf(&b, "  %s  by %s\n", s.Gate, who(s.SetBy, s.SetAt))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
