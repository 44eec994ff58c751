package policycmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"
)

type listOptions struct {
	format string
}

func newPolicyListCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &listOptions{}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List every gate with its effective configuration",
		Args:  cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			return runPolicyList(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runPolicyList(ctx context.Context, g *cmdbase.Globals, opts *listOptions) error {
	e, err := g.OpenEngine(ctx, false)
	if err != nil {
		return err
	}
	defer e.Close()
	rows := app.ListGates(e)
	if err := app.AddStackRoots(ctx, e.Root(), rows); err != nil {
		return err
	}
	for _, w := range e.ConfigWarnings() {
		fmt.Fprintf(g.Stderr, "warning: %s\n", w)
	}
	return render.GateList(g.Stdout, opts.format, rows)
}
