package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/engine"
)

func newLogVerifyCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "verify",
		Short: "Check the decision log's hash chain end to end",
		Long: "Recomputes every row's hash and link. Prints `ok N decisions` and the head hash\n" +
			"(publish it to anchor the log), or the first broken row and why: content changed,\n" +
			"rows missing, inserted or reordered, or the tail truncated.\n" +
			"Exit codes: 0 intact, 1 broken, 3 the log cannot be read.",
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runLogVerify(cmd.Context(), g)
		},
	}
}

func runLogVerify(ctx context.Context, g *globals) error {
	st, _, err := g.openLog(ctx, engine.LogQuery{})
	if err != nil {
		return err
	}
	defer st.Close()
	rep, err := engine.VerifyLog(ctx, st)
	if err != nil {
		return err
	}
	if rep.OK {
		_, err := fmt.Fprintf(g.stdout, "ok %d decisions, head %s\n", rep.Rows, orDash(rep.Head))
		return err
	}
	fmt.Fprintf(g.stdout, "broken: %s\n", rep.Break)
	fmt.Fprintf(g.stdout, "%d decision(s) verified intact before the break\n", rep.Rows)
	return errCheckFailed
}
