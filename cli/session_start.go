package cli

import (
	"context"
	"fmt"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

func newSessionStartCmd(g *cmdbase.Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "start",
		Short: "Open a session (budgeted tasks start only inside one)",
		Args:  cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSessionStart(cmd.Context(), g)
		},
	}
}

func runSessionStart(ctx context.Context, g *cmdbase.Globals) error {
	st, _, err := g.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	s, err := app.StartSession(ctx, st)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(g.Stdout, "session %s started %s\n", s.ID, render.Stamp(s.StartedAt))
	return err
}
