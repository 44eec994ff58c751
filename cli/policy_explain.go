package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"
)

type explainOptions struct {
	gate   string
	format string
}

func newPolicyExplainCmd(g *globals) *cobra.Command {
	opts := &explainOptions{}
	cmd := &cobra.Command{
		Use:   "explain GATE [--format text|json]",
		Short: "Show what a gate decides, how it is configured and by which tier, and its fixtures",
		Long: "Shows what the gate decides and prevents, its triggers, severity and whether it is on,\n" +
			"the facts it reads, each param with its value, default, type, the tier that set it\n" +
			"(default, or the project, user or managed file and line) and what the committed project\n" +
			"may do with it, and the fixtures that prove the gate red and green.\n" +
			"Exit codes: 0 shown, 2 unknown gate or usage, 3 policy/config error.",
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			opts.gate = args[0]
			return runPolicyExplain(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runPolicyExplain(ctx context.Context, g *globals, opts *explainOptions) error {
	e, err := g.openEngine(ctx, false)
	if err != nil {
		return err
	}
	defer e.Close()
	ex, err := app.Explain(e, opts.gate)
	if err != nil {
		return err
	}
	if opts.format == "json" {
		return render.JSON(g.stdout, ex)
	}
	return renderExplanation(g.stdout, ex)
}

// renderExplanation prints an explanation for a person.
func renderExplanation(w io.Writer, ex *app.Explanation) error {
	var b strings.Builder
	where := "built-in gate, " + ex.Dir
	if ex.Source != engine.SourceBuiltin {
		where = "team gate in " + ex.Dir
	}
	fmt.Fprintf(&b, "%s (%s; %s, phase %s)\n", ex.Name, where, ex.Language, ex.Phase)
	fmt.Fprintf(&b, "\n%s\n\nprevents: %s\n\n", ex.Description, ex.Prevents)
	renderGateConfig(&b, &ex.GateConfig, "")
	fmt.Fprintf(&b, "facts: %s\n", render.OrNone(ex.Facts))
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
			fmt.Fprintf(&b, "  %-28s  does not load: %s\n", c.Name, render.FirstLine(c.Error))
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

// plain is v for a person: a string as it is, a list of strings joined
// with commas, anything else as compact JSON.
func plain(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []string:
		return strings.Join(x, ", ")
	}
	return value(v)
}

// value is v as compact JSON.
func value(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
