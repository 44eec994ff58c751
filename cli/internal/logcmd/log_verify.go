package logcmd

import (
	"context"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type logVerifyOptions struct {
	checkpoints []string
	gitRef      string
	pub         string
}

func newLogVerifyCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &logVerifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify [--checkpoint FILE]... [--git-ref REF] [--pub KEY]",
		Short: "Check the decision log end to end, and that it still extends each checkpoint",
		Long: "Rebuilds the Merkle tree from every decision's stored bytes and compares it with the\n" +
			"stored hashes; checks the chain links and head and that every column agrees with its\n" +
			"decision. Prints `ok N decisions` and the heads, or the first broken row and why.\n" +
			"Then, per --checkpoint (from `log checkpoint`, kept outside the database): the log must\n" +
			"still have its size and its root at that size, and checkpoints must agree with each\n" +
			"other; --git-ref REF adds every checkpoint kept on that ref (`log checkpoint --git-ref`);\n" +
			"--pub (a note verifier key, or a public key file) checks their signatures.\n" +
			"Decisions after the newest checkpoint are protected by nothing outside the database.\n" +
			"Exit codes: 0 intact, 1 broken, 2 usage (not a checkpoint), 3 the log cannot be read.",
		Args: cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runLogVerify(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringArrayVar(&opts.checkpoints, "checkpoint", nil, "a checkpoint the log must extend (repeatable)")
	cmd.Flags().StringVar(&opts.gitRef, "git-ref", "", "a git ref whose checkpoints the log must all extend")
	cmd.Flags().StringVar(&opts.pub, "pub", "", "check checkpoint signatures against this key")
	return cmd
}

func runLogVerify(ctx context.Context, g *cmdbase.Globals, opts *logVerifyOptions) error {
	trusted, files, err := loadCheckpoints(ctx, g, opts)
	if err != nil {
		return err
	}
	st, _, err := openLog(ctx, g, app.LogQuery{})
	if err != nil {
		return err
	}
	defer st.Close()
	v, err := app.VerifyLog(ctx, st, files, trusted)
	if err != nil {
		return err
	}
	if err := render.LogVerification(g.Stdout, v, len(files), opts.gitRef); err != nil {
		return err
	}
	if !v.OK() {
		return cmdbase.ErrCheckFailed
	}
	return nil
}

// loadCheckpoints reads the trusted keys and the checkpoints (files and the
// git ref's) that log verify and log report check the log against.
func loadCheckpoints(ctx context.Context, g *cmdbase.Globals, opts *logVerifyOptions) ([]app.TrustedKey, []app.CheckpointFile, error) {
	root, err := g.ProjectRoot()
	if err != nil {
		return nil, nil, err
	}
	return app.LoadCheckpoints(ctx, root, opts.sources())
}

// sources are the checkpoints the flags name.
func (opts *logVerifyOptions) sources() app.CheckpointSources {
	return app.CheckpointSources{Files: opts.checkpoints, GitRef: opts.gitRef, Pub: opts.pub}
}
