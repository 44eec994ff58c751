package policycmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"
)

type explainOptions struct {
	gate   string
	format string
}

func newPolicyExplainCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &explainOptions{}
	cmd := &cobra.Command{
		Use:   "explain GATE [--format text|json]",
		Short: "Show what a gate decides, how it is configured and by which tier, and its fixtures",
		Long: "Shows what the gate decides and prevents, its triggers, severity and whether it is on,\n" +
			"the facts it reads, each param with its value, default, type, the tier that set it\n" +
			"(default, or the project, user or managed file and line) and what the committed project\n" +
			"may do with it, and the fixtures that prove the gate red and green.\n" +
			"Exit codes: 0 shown, 2 unknown gate or usage, 3 policy/config error.",
		Args: cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			opts.gate = args[0]
			return runPolicyExplain(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runPolicyExplain(ctx context.Context, g *cmdbase.Globals, opts *explainOptions) error {
	e, err := g.OpenEngine(ctx, false)
	if err != nil {
		return err
	}
	defer e.Close()
	ex, err := app.Explain(e, opts.gate)
	if err != nil {
		return err
	}
	return render.Explanation(g.Stdout, opts.format, ex)
}
