package cli

import (
	"context"
	"fmt"

	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type logVerifyOptions struct {
	checkpoints []string
	gitRef      string
	pub         string
}

func newLogVerifyCmd(g *globals) *cobra.Command {
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
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runLogVerify(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringArrayVar(&opts.checkpoints, "checkpoint", nil, "a checkpoint the log must extend (repeatable)")
	cmd.Flags().StringVar(&opts.gitRef, "git-ref", "", "a git ref whose checkpoints the log must all extend")
	cmd.Flags().StringVar(&opts.pub, "pub", "", "check checkpoint signatures against this key")
	return cmd
}

func runLogVerify(ctx context.Context, g *globals, opts *logVerifyOptions) error {
	trusted, files, err := loadCheckpoints(ctx, g, opts)
	if err != nil {
		return err
	}
	st, _, err := g.openLog(ctx, app.LogQuery{})
	if err != nil {
		return err
	}
	defer st.Close()
	v, err := app.VerifyLog(ctx, st, files, trusted)
	if err != nil {
		return err
	}
	rep := v.Log
	if rep.OK {
		fmt.Fprintf(g.stdout, "ok %d decisions, head %s\n", rep.Size, render.OrDash(rep.Head))
		fmt.Fprintf(g.stdout, "tree root %s at size %d\n", rep.Root, rep.Size)
	} else {
		fmt.Fprintf(g.stdout, "broken: %s\n", rep.Break)
		fmt.Fprintf(g.stdout, "%d decision(s) verified intact before the break\n", rep.Verified)
	}
	for _, a := range v.Anchors {
		line := fmt.Sprintf("checkpoint %s: %s (%s, size %d", a.Name, a.Kind, a.Origin, a.Size)
		switch {
		case a.Kind == app.AnchorBadSignature:
		case v.Pinned:
			line += ", signature checked"
		default:
			line += ", signature not checked: pass --pub"
		}
		line += ")"
		if a.Detail != "" {
			line += ": " + a.Detail
		}
		fmt.Fprintln(g.stdout, line)
	}
	switch {
	case len(files) == 0 && opts.gitRef != "":
		fmt.Fprintf(g.stdout, "unprotected: every decision (%s holds no checkpoint)\n", opts.gitRef)
	case len(files) == 0:
		fmt.Fprintln(g.stdout, "unprotected: every decision (no --checkpoint: whoever can write the database can rewrite it whole)")
	case v.Covered < rep.Size:
		fmt.Fprintf(g.stdout, "unprotected: decisions %d..%d, after the newest checkpoint the log extends\n", v.Covered+1, rep.Size)
	}
	if !v.OK() {
		return errCheckFailed
	}
	return nil
}
