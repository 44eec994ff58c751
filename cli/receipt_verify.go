package cli

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type receiptVerifyOptions struct {
	file string
	pub  string
}

func newReceiptVerifyCmd(g *globals) *cobra.Command {
	opts := &receiptVerifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify FILE [--pub KEYFILE]",
		Short: "Verify an exported receipt offline (no database, no project needed)",
		Long: "Checks the receipt's signature against the key it embeds, or, with --pub, against\n" +
			"a pinned public key (PEM, or base64 of the raw key). Without --pub it only proves\n" +
			"that the file is intact and self-consistent: anyone can sign with a key of their own.\n" +
			"FILE - reads stdin.\n" +
			"Exit codes: 0 valid, 1 bad signature or another key, 2 not a receipt (or bad --pub).",
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			return runReceiptVerify(g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.pub, "pub", "", "pin this public key file (e.g. .tausik/keys/signing.pub)")
	return cmd
}

func runReceiptVerify(g *globals, opts *receiptVerifyOptions) error {
	var pinned ed25519.PublicKey
	if opts.pub != "" {
		b, err := os.ReadFile(opts.pub)
		if err != nil {
			return usageErr(fmt.Errorf("--pub: %w", err))
		}
		if pinned, err = app.ParsePublicKey(b); err != nil {
			return usageErr(fmt.Errorf("--pub %s: %w", opts.pub, err))
		}
	}
	data, err := readBundle(g, opts.file)
	if err != nil {
		return err
	}
	r, err := app.VerifyReceiptExport(data, pinned)
	if errors.Is(err, diag.ErrInvalidReceipt) {
		fmt.Fprintf(g.stdout, "INVALID: %s: %v\n", opts.file, err)
		return errCheckFailed
	}
	if err != nil {
		return err
	}
	return render.ValidReceipt(g.stdout, r, pinned != nil)
}

// readBundle reads the file a verify command checks, or stdin for "-"; a
// file that cannot be read is a usage error (exit 2), as both commands say.
func readBundle(g *globals, file string) ([]byte, error) {
	var data []byte
	var err error
	if file == "-" {
		data, err = io.ReadAll(g.stdin)
	} else {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return nil, usageErr(fmt.Errorf("read %s: %w", file, err))
	}
	return data, nil
}
