package cli

import (
	"crypto/ed25519"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/artifacts"
)

type adaptSignOptions struct {
	slug, role, by, key string
}

func newAdaptSignCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &adaptSignOptions{}
	cmd := &cobra.Command{
		Use:   "sign SLUG --role architect [--by NAME] [--key PATH]",
		Short: "Sign an ADAPT's canonical content with ed25519",
		Long: "Signs with the project key (.tausik/keys/, `tausik key init`) or the PEM private key at\n" +
			"--key, replacing an earlier signature of the same role and key, and commits the public\n" +
			"key under renar/keys/ so anyone can check it. Editing the ADAPT afterwards (anything but\n" +
			"status, links and supersession) breaks the signature: renar_drift_schema reports\n" +
			"signature-invalid until it is signed again. Roles: " + strings.Join(artifacts.Roles, ", ") + ".\n" +
			"Exit codes: 0 signed, 2 a bad role, signer or ADAPT, 3 a key that cannot be loaded.",
		Args: cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.slug = args[0]
			if !cmd.Flags().Changed("by") {
				opts.by = g.Getenv("USER")
			}
			return runAdaptSign(g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.role, "role", "", "the signer's role: "+strings.Join(artifacts.Roles, ", "))
	cmd.Flags().StringVar(&opts.by, "by", "", "who signs (default $USER)")
	cmd.Flags().StringVar(&opts.key, "key", "", "a PEM ed25519 private key (default: the project key)")
	_ = cmd.MarkFlagRequired("role")
	return cmd
}

func runAdaptSign(g *cmdbase.Globals, opts *adaptSignOptions) error {
	repo, err := renarRepo(g)
	if err != nil {
		return err
	}
	var key ed25519.PrivateKey
	if opts.key != "" {
		key, err = artifacts.LoadPrivateKey(opts.key)
	} else {
		key, err = artifacts.ProjectKey(repo.Root)
	}
	if err != nil {
		return err
	}
	s, err := repo.Sign(opts.slug, opts.role, opts.by, key)
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "ADAPT %s signed as %s by %s with %s\n", opts.slug, s.Signature.Role, s.Signature.SignedBy, s.Signature.Fingerprint)
	if s.Published != "" {
		fmt.Fprintf(g.Stdout, "public key written to %s: commit it so others can check the signature\n", s.Published)
	}
	return nil
}
