package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"
)

func newConfigCmd(g *cmdbase.Globals) *cobra.Command {
	return cmdbase.NewGroupCmd("config", "Show the configuration tiers and the configuration they resolve to",
		newConfigShowCmd(g))
}

type configShowOptions struct {
	effective bool
	format    string
}

func newConfigShowCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &configShowOptions{}
	cmd := &cobra.Command{
		Use:   "show [--effective] [--format text|json]",
		Short: "Show each configuration file found, or (--effective) every gate's resolved configuration",
		Long: "Without --effective: each tier's file that was found (project tausik/gates.json, user,\n" +
			"managed), its digest and what it sets. With --effective: per gate, enabled, severity,\n" +
			"triggers and every param with its value, the tier that set it and what the committed\n" +
			"project may do with it; then the refused weakenings and the gates switched off.\n" +
			"Exit codes: 0 shown, 2 usage, 3 config error.",
		Args: cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			return runConfigShow(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.effective, "effective", false, "show every gate's resolved configuration and where each value came from")
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runConfigShow(ctx context.Context, g *cmdbase.Globals, opts *configShowOptions) error {
	e, err := g.OpenEngine(ctx, false)
	if err != nil {
		return err
	}
	defer e.Close()
	if opts.effective {
		return render.Effective(g.Stdout, opts.format, app.ShowEffective(e))
	}
	return render.ConfigFiles(g.Stdout, opts.format, app.ShowConfig(e))
}
