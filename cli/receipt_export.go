package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"

	"github.com/spf13/cobra"
)

type receiptExportOptions struct {
	task   string
	output string
}

func newReceiptExportCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &receiptExportOptions{}
	cmd := &cobra.Command{
		Use:   "export SLUG [--output FILE]",
		Short: "Export a task's latest receipt with the public key, verifiable offline",
		Args:  cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.task = args[0]
			return runReceiptExport(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVarP(&opts.output, "output", "o", "", "write to FILE instead of stdout")
	return cmd
}

func runReceiptExport(ctx context.Context, g *cmdbase.Globals, opts *receiptExportOptions) error {
	st, root, err := g.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	b, err := app.ExportReceipt(ctx, st, root, opts.task)
	if err != nil {
		return err
	}
	if opts.output == "" {
		_, err = g.Stdout.Write(b)
		return err
	}
	if err := os.WriteFile(opts.output, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", opts.output, err)
	}
	_, err = fmt.Fprintf(g.Stderr, "receipt of task %s written to %s\n", opts.task, opts.output)
	return err
}
