package cli

import (
	"context"
	"fmt"

	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

func newSessionStartCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "start",
		Short: "Open a session (budgeted tasks start only inside one)",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSessionStart(cmd.Context(), g)
		},
	}
}

func runSessionStart(ctx context.Context, g *globals) error {
	st, _, err := g.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	s, err := app.StartSession(ctx, st)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(g.stdout, "session %s started %s\n", s.ID, render.Stamp(s.StartedAt))
	return err
}
