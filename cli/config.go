package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"
)

func newConfigCmd(g *globals) *cobra.Command {
	return newGroupCmd("config", "Show the configuration tiers and the configuration they resolve to",
		newConfigShowCmd(g))
}

type configShowOptions struct {
	effective bool
	format    string
}

func newConfigShowCmd(g *globals) *cobra.Command {
	opts := &configShowOptions{}
	cmd := &cobra.Command{
		Use:   "show [--effective] [--format text|json]",
		Short: "Show each configuration file found, or (--effective) every gate's resolved configuration",
		Long: "Without --effective: each tier's file that was found (project tausik/gates.json, user,\n" +
			"managed), its digest and what it sets. With --effective: per gate, enabled, severity,\n" +
			"triggers and every param with its value, the tier that set it and what the committed\n" +
			"project may do with it; then the refused weakenings and the gates switched off.\n" +
			"Exit codes: 0 shown, 2 usage, 3 config error.",
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			return runConfigShow(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.effective, "effective", false, "show every gate's resolved configuration and where each value came from")
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runConfigShow(ctx context.Context, g *globals, opts *configShowOptions) error {
	e, err := g.openEngine(ctx, false)
	if err != nil {
		return err
	}
	defer e.Close()
	if opts.effective {
		eff := app.ShowEffective(e)
		if opts.format == "json" {
			return render.JSON(g.stdout, eff)
		}
		return renderEffective(g.stdout, eff)
	}
	files := app.ShowConfig(e)
	if opts.format == "json" {
		return render.JSON(g.stdout, files)
	}
	return renderConfigFiles(g.stdout, files)
}

func renderConfigFiles(w io.Writer, c app.ConfigFiles) error {
	var b strings.Builder
	if len(c.Files) == 0 {
		b.WriteString("no configuration file: every gate runs with its built-in defaults\n")
	}
	for i, f := range c.Files {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s  %s  %s\n", f.Tier, f.File, f.Digest)
		fmt.Fprintf(&b, "  sections: %s\n", render.OrNone(f.Sections))
		for _, s := range f.Sets {
			fmt.Fprintf(&b, "  %s:%d  gates.%s = %s\n", f.File, s.Line, s.Key, value(s.Value))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func renderEffective(w io.Writer, c app.EffectiveConfig) error {
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
