package logcmd

import (
	"context"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"

	"github.com/spf13/cobra"
)

type logProveOptions struct {
	id         string
	checkpoint string
	pub        string
	key        string
	out        string
}

func newLogProveCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &logProveOptions{}
	cmd := &cobra.Command{
		Use:   "prove ID [--checkpoint FILE] > bundle.json",
		Short: "Write one decision with its inclusion proof, to check offline with verify-proof",
		Long: "Writes a JSON bundle: the decision's stored bytes, its index, the Merkle inclusion\n" +
			"proof and a signed checkpoint. With --checkpoint the proof leads to that checkpoint\n" +
			"(the log must extend it; its signer is --pub, else the project key); without, a\n" +
			"checkpoint of the current log is signed now (key as for `log checkpoint`).\n" +
			"Exit codes: 0 written, 1 the log does not extend the checkpoint, 2 usage, 3 error.",
		Args: cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.id = args[0]
			return runLogProve(cmd.Context(), g, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.checkpoint, "checkpoint", "", "prove against this checkpoint instead of a fresh one")
	f.StringVar(&opts.pub, "pub", "", "the key that signed --checkpoint (note verifier key, or a public key file)")
	f.StringVar(&opts.key, "key", "", "sign the fresh checkpoint with this private key file")
	f.StringVar(&opts.out, "out", "", "write the bundle to this file instead of stdout")
	return cmd
}

func runLogProve(ctx context.Context, g *cmdbase.Globals, opts *logProveOptions) error {
	trusted, _, err := app.LoadCheckpoints(ctx, "", app.CheckpointSources{Pub: opts.pub})
	if err != nil {
		return err
	}
	var cp *app.CheckpointFile
	if opts.checkpoint != "" {
		if cp, err = app.ReadCheckpoint("--checkpoint", opts.checkpoint); err != nil {
			return err
		}
	}
	st, _, err := openLog(ctx, g, app.LogQuery{})
	if err != nil {
		return err
	}
	defer st.Close()
	root, err := g.ProjectRoot()
	if err != nil {
		return err
	}
	key := func() (app.CheckpointKey, error) { return app.LoadCheckpointKey(ctx, root, opts.key, g.Getenv) }
	b, err := app.ProveLog(ctx, st, root, opts.id, cp, trusted, key, g.Getenv)
	if err != nil {
		return err
	}
	return cmdbase.WriteOut(g, opts.out, b)
}
