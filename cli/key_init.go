package cli

import (
	"fmt"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"

	"github.com/spf13/cobra"
)

type keyInitOptions struct {
	force bool
}

func newKeyInitCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &keyInitOptions{}
	cmd := &cobra.Command{
		Use:   "init [--force]",
		Short: "Create the ed25519 key that signs verify receipts",
		Long: "Creates .tausik/keys/signing.key (mode 0600, never printed) and signing.pub.\n" +
			"An existing key is kept unless --force: receipts it signed stop verifying once it\n" +
			"is replaced.",
		Args: cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := g.RefuseAgent(cmd.Context()); err != nil {
				return err
			}
			return runKeyInit(g, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.force, "force", false, "replace an existing key")
	return cmd
}

func runKeyInit(g *cmdbase.Globals, opts *keyInitOptions) error {
	root, err := g.ProjectRoot()
	if err != nil {
		return err
	}
	k, err := app.InitKey(root, opts.force)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(g.Stdout, "signing key created in %s\nfingerprint %s\npublic key  %s\n", k.Dir, k.Fingerprint, k.PublicFile)
	return err
}
