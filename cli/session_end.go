package cli

import (
	"context"
	"fmt"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

func newSessionEndCmd(g *cmdbase.Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "end",
		Short: "Close the open session (its counters and the handoff are kept)",
		Args:  cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runSessionEnd(cmd.Context(), g)
		},
	}
}

func runSessionEnd(ctx context.Context, g *cmdbase.Globals) error {
	st, _, err := g.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	state, err := app.EndSession(ctx, st)
	if err != nil {
		return err
	}
	s := state.Session
	_, err = fmt.Fprintf(g.Stdout, "session %s ended %s after %d tool call(s), %d active minute(s)\n",
		s.ID, render.Stamp(s.EndedAt), s.ToolCalls, state.ActiveMinutes())
	return err
}
