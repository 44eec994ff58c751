package logcmd

import (
	"context"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type logShowOptions struct {
	id     string
	format string
}

func newLogShowCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &logShowOptions{}
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show one decision by id or unique prefix (at least 6 characters)",
		Args:  cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			opts.id = args[0]
			return runLogShow(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runLogShow(ctx context.Context, g *cmdbase.Globals, opts *logShowOptions) error {
	st, _, err := openLog(ctx, g, app.LogQuery{})
	if err != nil {
		return err
	}
	defer st.Close()
	e, err := app.ShowLog(ctx, st, opts.id)
	if err != nil {
		return err
	}
	return render.LogShow(g.Stdout, opts.format, e)
}
