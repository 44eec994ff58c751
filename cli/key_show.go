package cli

import (
	"context"
	"encoding/base64"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type keyShowOptions struct {
	format string
}

func newKeyShowCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &keyShowOptions{}
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Show the signing key's fingerprint and public key (never the private key)",
		Args:  cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			return runKeyShow(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runKeyShow(ctx context.Context, g *cmdbase.Globals, opts *keyShowOptions) error {
	root, err := g.ProjectRoot()
	if err != nil {
		return err
	}
	k, err := app.ShowKey(root)
	if err != nil {
		return err
	}
	pub := base64.StdEncoding.EncodeToString(k.Public)
	// The note verifier key auditors pin to check checkpoints: the one
	// checkpoints are signed with here ($TAUSIK_LOG_KEY… or this key).
	ck, err := app.LoadCheckpointKey(ctx, root, "", g.Getenv)
	if err != nil {
		return err
	}
	return render.Key(g.Stdout, opts.format, k, pub, ck)
}
