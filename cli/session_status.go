package cli

import (
	"context"

	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type sessionStatusOptions struct {
	format string
}

func newSessionStatusCmd(g *globals) *cobra.Command {
	opts := &sessionStatusOptions{}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show the open (or last) session, its active time and the latest handoff",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			return runSessionStatus(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runSessionStatus(ctx context.Context, g *globals, opts *sessionStatusOptions) error {
	st, _, err := g.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	state, err := app.SessionStatus(ctx, st)
	if err != nil {
		return err
	}
	return render.Session(g.stdout, opts.format, state)
}
