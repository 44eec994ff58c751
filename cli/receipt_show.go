package cli

import (
	"context"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type receiptShowOptions struct {
	task   string
	format string
}

func newReceiptShowCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &receiptShowOptions{}
	cmd := &cobra.Command{
		Use:   "show SLUG",
		Short: "Show a task's latest verify receipt, checked against the project key",
		Args:  cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			opts.task = args[0]
			return runReceiptShow(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runReceiptShow(ctx context.Context, g *cmdbase.Globals, opts *receiptShowOptions) error {
	st, root, err := g.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	v, err := app.LatestReceipt(ctx, st, root, opts.task)
	if err != nil {
		return err
	}
	return render.Receipt(g.Stdout, opts.format, opts.task, v)
}
