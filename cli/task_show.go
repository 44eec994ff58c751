package cli

import (
	"context"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type taskShowOptions struct {
	slug   string
	format string
}

func newTaskShowCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &taskShowOptions{}
	cmd := &cobra.Command{
		Use:   "show SLUG",
		Short: "Show one task",
		Args:  cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			opts.slug = args[0]
			return runTaskShow(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runTaskShow(ctx context.Context, g *cmdbase.Globals, opts *taskShowOptions) error {
	st, _, err := g.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	t, err := app.GetTask(ctx, st, opts.slug)
	if err != nil {
		return err
	}
	return render.Task(g.Stdout, opts.format, t)
}
