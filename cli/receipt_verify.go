package cli

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type receiptVerifyOptions struct {
	file string
	pub  string
}

func newReceiptVerifyCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &receiptVerifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify FILE [--pub KEYFILE]",
		Short: "Verify an exported receipt offline (no database, no project needed)",
		Long: "Checks the receipt's signature against the key it embeds, or, with --pub, against\n" +
			"a pinned public key (PEM, or base64 of the raw key). Without --pub it only proves\n" +
			"that the file is intact and self-consistent: anyone can sign with a key of their own.\n" +
			"FILE - reads stdin.\n" +
			"Exit codes: 0 valid, 1 bad signature or another key, 2 not a receipt (or bad --pub).",
		Args: cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			return runReceiptVerify(g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.pub, "pub", "", "pin this public key file (e.g. .tausik/keys/signing.pub)")
	return cmd
}

func runReceiptVerify(g *cmdbase.Globals, opts *receiptVerifyOptions) error {
	var pinned ed25519.PublicKey
	if opts.pub != "" {
		b, err := os.ReadFile(opts.pub)
		if err != nil {
			return cmdbase.UsageErr(fmt.Errorf("--pub: %w", err))
		}
		if pinned, err = app.ParsePublicKey(b); err != nil {
			return cmdbase.UsageErr(fmt.Errorf("--pub %s: %w", opts.pub, err))
		}
	}
	data, err := cmdbase.ReadBundle(g, opts.file)
	if err != nil {
		return err
	}
	r, err := app.VerifyReceiptExport(data, pinned)
	if errors.Is(err, diag.ErrInvalidReceipt) {
		fmt.Fprintf(g.Stdout, "INVALID: %s: %v\n", opts.file, err)
		return cmdbase.ErrCheckFailed
	}
	if err != nil {
		return err
	}
	return render.ValidReceipt(g.Stdout, r, pinned != nil)
}
