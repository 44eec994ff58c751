package cli

import (
	"context"

	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type taskShowOptions struct {
	slug   string
	format string
}

func newTaskShowCmd(g *globals) *cobra.Command {
	opts := &taskShowOptions{}
	cmd := &cobra.Command{
		Use:   "show SLUG",
		Short: "Show one task",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			opts.slug = args[0]
			return runTaskShow(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runTaskShow(ctx context.Context, g *globals, opts *taskShowOptions) error {
	st, _, err := g.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	t, err := app.GetTask(ctx, st, opts.slug)
	if err != nil {
		return err
	}
	return render.Task(g.stdout, opts.format, t)
}
