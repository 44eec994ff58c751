package logcmd

import (
	"errors"
	"fmt"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type logVerifyProofOptions struct {
	file string
	pub  string
}

func newLogVerifyProofCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &logVerifyProofOptions{}
	cmd := &cobra.Command{
		Use:   "verify-proof BUNDLE [--pub KEY]",
		Short: "Check a `log prove` bundle offline (no database, no project needed)",
		Long: "Checks that the decision's bytes lead, through the inclusion proof, to the root of the\n" +
			"signed checkpoint. The signature is checked against --pub (a note verifier key, or a\n" +
			"public key file), or else only against the key the bundle embeds: without --pub it\n" +
			"proves the bundle is intact, not who signed it. BUNDLE - reads stdin.\n" +
			"Exit codes: 0 valid, 1 invalid or signed by another key, 2 not a bundle (or bad --pub).",
		Args: cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			return runLogVerifyProof(g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.pub, "pub", "", "pin the checkpoint signer's key")
	return cmd
}

func runLogVerifyProof(g *cmdbase.Globals, opts *logVerifyProofOptions) error {
	var trusted []app.TrustedKey
	var err error
	if opts.pub != "" {
		if trusted, err = app.ParseTrustedKeys(opts.pub); err != nil {
			return err
		}
	}
	data, err := cmdbase.ReadBundle(g, opts.file)
	if err != nil {
		return err
	}
	v, err := app.VerifyProofBundle(data, trusted)
	if errors.Is(err, app.ErrInvalidProof) {
		fmt.Fprintf(g.Stdout, "INVALID: %s: %v\n", opts.file, err)
		return cmdbase.ErrCheckFailed
	}
	if err != nil {
		return err
	}
	return render.ValidProof(g.Stdout, v)
}
