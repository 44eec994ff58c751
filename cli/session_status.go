package cli

import (
	"context"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type sessionStatusOptions struct {
	format string
}

func newSessionStatusCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &sessionStatusOptions{}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show the open (or last) session, its active time and the latest handoff",
		Args:  cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			return runSessionStatus(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runSessionStatus(ctx context.Context, g *cmdbase.Globals, opts *sessionStatusOptions) error {
	st, _, err := g.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	state, err := app.SessionStatus(ctx, st)
	if err != nil {
		return err
	}
	return render.Session(g.Stdout, opts.format, state)
}
