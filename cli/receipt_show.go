package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type receiptShowOptions struct {
	task   string
	format string
}

func newReceiptShowCmd(g *globals) *cobra.Command {
	opts := &receiptShowOptions{}
	cmd := &cobra.Command{
		Use:   "show SLUG",
		Short: "Show a task's latest verify receipt, checked against the project key",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			opts.task = args[0]
			return runReceiptShow(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runReceiptShow(ctx context.Context, g *globals, opts *receiptShowOptions) error {
	st, root, err := g.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	v, err := app.LatestReceipt(ctx, st, root, opts.task)
	if err != nil {
		return err
	}
	if opts.format == "json" {
		return render.JSON(g.stdout, struct {
			Run     any             `json:"run"`
			Receipt json.RawMessage `json:"receipt"`
		}{v.Facts, nonNilRaw(v.Run.Receipt)})
	}
	f := v.Facts
	check := "valid"
	if !f.Receipt.Valid {
		check = "INVALID: " + f.Receipt.Reason
	}
	fmt.Fprintf(g.stdout, "verify run %d for task %s at %s: passed %v, exit %d\n", f.ID, opts.task, stamp(v.Run.RanAt), f.Passed, f.ExitCode)
	for _, gt := range f.Gates {
		fmt.Fprintf(g.stdout, "    %-20s %-5s passed %v\n", gt.Name, gt.Severity, gt.Passed)
	}
	fmt.Fprintf(g.stdout, "files hash     %s\ngate signature %s\ngit sha        %s\nsigned by      %s\nreceipt        %s\n",
		f.FilesHash, f.GateSignature, orDash(f.GitSHA), orDash(f.Receipt.KeyFingerprint), check)
	return nil
}

func nonNilRaw(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("null")
	}
	return b
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
