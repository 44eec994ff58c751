package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/internal/app"
)

type logCheckpointOptions struct {
	out    string
	key    string
	gitRef string
}

func newLogCheckpointCmd(g *globals) *cobra.Command {
	opts := &logCheckpointOptions{}
	cmd := &cobra.Command{
		Use:   "checkpoint [--out FILE] [--key KEYFILE] [--git-ref REF]",
		Short: "Sign the log's tree head as a C2SP checkpoint, to keep outside the database",
		Long: "Prints (or writes to --out) a signed note: origin, size and root hash of the log's\n" +
			"Merkle tree. Kept elsewhere (a CI log, an artifact, a commit), it lets `log verify\n" +
			"--checkpoint` prove later that nothing before it was edited, dropped, inserted,\n" +
			"reordered or truncated. Signing key: --key, else $" + app.EnvLogKeyFile + ", else $" +
			app.EnvLogKey + ",\nelse the project key (.tausik/keys). Origin: $" + app.EnvLogOrigin +
			", else the repository's remote.\n--git-ref REF (refs/tausik/checkpoints by convention) also commits it to that\n" +
			"ref, beside every checkpoint kept there before: push the ref with the code\n" +
			"(git push origin REF) and `log verify --git-ref REF` checks the log against them all.\n" +
			"Exit codes: 0 written, 3 no key, the log cannot be read or the ref not written.",
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runLogCheckpoint(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.out, "out", "", "write the checkpoint to this file instead of stdout")
	cmd.Flags().StringVar(&opts.key, "key", "", "sign with this private key file (PEM, or a note signer key)")
	cmd.Flags().StringVar(&opts.gitRef, "git-ref", "", "also keep the checkpoint as a commit on this git ref")
	return cmd
}

func runLogCheckpoint(ctx context.Context, g *globals, opts *logCheckpointOptions) error {
	st, _, err := g.openLog(ctx, app.LogQuery{})
	if err != nil {
		return err
	}
	defer st.Close()
	root, err := g.projectRoot()
	if err != nil {
		return err
	}
	key, err := app.LoadCheckpointKey(ctx, root, opts.key, g.getenv)
	if err != nil {
		return err
	}
	msg, err := app.SignCheckpoint(ctx, st, root, key, g.getenv)
	if err != nil {
		return err
	}
	if opts.gitRef != "" {
		if _, err := app.KeepCheckpoint(ctx, root, opts.gitRef, msg); err != nil {
			return err
		}
	}
	return writeOut(g, opts.out, msg)
}

// writeOut writes data to the file named, or to stdout when none is.
func writeOut(g *globals, path string, data []byte) error {
	if path == "" {
		_, err := g.stdout.Write(data)
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("%w: %v", diag.ErrConfig, err)
	}
	return nil
}
