package cli

import (
	"context"
	"fmt"

	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

func newSessionEndCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "end",
		Short: "Close the open session (its counters and the handoff are kept)",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSessionEnd(cmd.Context(), g)
		},
	}
}

func runSessionEnd(ctx context.Context, g *globals) error {
	st, _, err := g.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	state, err := app.EndSession(ctx, st)
	if err != nil {
		return err
	}
	s := state.Session
	_, err = fmt.Fprintf(g.stdout, "session %s ended %s after %d tool call(s), %d active minute(s)\n",
		s.ID, render.Stamp(s.EndedAt), s.ToolCalls, state.ActiveMinutes())
	return err
}
