package logcmd

import (
	"context"
	"fmt"
	"os"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"

	"github.com/spf13/cobra"
)

type logExportOptions struct {
	query  app.LogQuery
	output string
}

func newLogExportCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &logExportOptions{}
	cmd := &cobra.Command{
		Use:   "export [filters] [--output FILE]",
		Short: "Export decisions as NDJSON in OPA's decision-log event shape",
		Long: "One JSON event per line: decision_id, timestamp, path, input, result, labels,\n" +
			"requested_by, metrics (OPA's names where they overlap), custom.decision (the full\n" +
			"record) and seq, prev_hash, hash, so an export verifies on its own.",
		Args: cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runLogExport(cmd.Context(), g, opts)
		},
	}
	logFilterFlags(cmd, &opts.query)
	cmd.Flags().StringVarP(&opts.output, "output", "o", "", "write to FILE instead of stdout")
	return cmd
}

func runLogExport(ctx context.Context, g *cmdbase.Globals, opts *logExportOptions) error {
	st, f, err := openLog(ctx, g, opts.query)
	if err != nil {
		return err
	}
	defer st.Close()
	w := g.Stdout
	if opts.output != "" {
		file, err := os.Create(opts.output)
		if err != nil {
			return fmt.Errorf("create %s: %w", opts.output, err)
		}
		defer file.Close()
		w = file
	}
	n, err := app.ExportLog(ctx, st, f, w)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(g.Stderr, "exported %d decision(s)\n", n)
	return err
}
