package cli

import (
	"context"

	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type logListOptions struct {
	query  app.LogQuery
	format string
}

func newLogListCmd(g *globals) *cobra.Command {
	opts := &logListOptions{}
	cmd := &cobra.Command{
		Use:   "list [--gate G] [--outcome O] [--task T] [--since 3h | --between A,B] [--tail N]",
		Short: "List decisions, oldest first",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			return runLogList(cmd.Context(), g, opts)
		},
	}
	logFilterFlags(cmd, &opts.query)
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runLogList(ctx context.Context, g *globals, opts *logListOptions) error {
	st, f, err := g.openLog(ctx, opts.query)
	if err != nil {
		return err
	}
	defer st.Close()
	entries, err := app.ListLog(ctx, st, f)
	if err != nil {
		return err
	}
	return render.LogList(g.stdout, opts.format, entries)
}
