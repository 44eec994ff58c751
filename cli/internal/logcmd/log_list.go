package logcmd

import (
	"context"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type logListOptions struct {
	query  app.LogQuery
	format string
}

func newLogListCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &logListOptions{}
	cmd := &cobra.Command{
		Use:   "list [--gate G] [--outcome O] [--task T] [--since 3h | --between A,B] [--tail N]",
		Short: "List decisions, oldest first",
		Args:  cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			return runLogList(cmd.Context(), g, opts)
		},
	}
	logFilterFlags(cmd, &opts.query)
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runLogList(ctx context.Context, g *cmdbase.Globals, opts *logListOptions) error {
	st, f, err := openLog(ctx, g, opts.query)
	if err != nil {
		return err
	}
	defer st.Close()
	entries, err := app.ListLog(ctx, st, f)
	if err != nil {
		return err
	}
	return render.LogList(g.Stdout, opts.format, entries)
}
