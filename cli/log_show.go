package cli

import (
	"context"

	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type logShowOptions struct {
	id     string
	format string
}

func newLogShowCmd(g *globals) *cobra.Command {
	opts := &logShowOptions{}
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show one decision by id or unique prefix (at least 6 characters)",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			opts.id = args[0]
			return runLogShow(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runLogShow(ctx context.Context, g *globals, opts *logShowOptions) error {
	st, _, err := g.openLog(ctx, app.LogQuery{})
	if err != nil {
		return err
	}
	defer st.Close()
	e, err := app.ShowLog(ctx, st, opts.id)
	if err != nil {
		return err
	}
	return render.LogShow(g.stdout, opts.format, e)
}
