package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type sessionHandoffOptions struct {
	text string
}

func newSessionHandoffCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &sessionHandoffOptions{}
	return &cobra.Command{
		Use:   "handoff TEXT... | -",
		Short: "Write the note for whoever works next (no open session needed)",
		Long: "Stores the handoff note; `-` reads it from stdin. Writing a handoff needs no open\n" +
			"session and never resets a session's counters: ending the window and passing the\n" +
			"baton are separate acts.",
		Args: cmdbase.UsageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.text = strings.Join(args, " ")
			if len(args) == 1 && args[0] == "-" {
				b, err := io.ReadAll(g.Stdin)
				if err != nil {
					return fmt.Errorf("read the handoff from stdin: %w", err)
				}
				opts.text = string(b)
			}
			if strings.TrimSpace(opts.text) == "" {
				return cmdbase.UsageErr(errors.New("the handoff text is empty"))
			}
			return runSessionHandoff(cmd.Context(), g, opts)
		},
	}
}

func runSessionHandoff(ctx context.Context, g *cmdbase.Globals, opts *sessionHandoffOptions) error {
	st, _, err := g.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	h, err := app.WriteHandoff(ctx, st, opts.text)
	if err != nil {
		return err
	}
	from := "no session open"
	if h.SessionID != "" {
		from = "session " + h.SessionID
	}
	_, err = fmt.Fprintf(g.Stdout, "handoff written %s (%s)\n", render.Stamp(h.WrittenAt), from)
	return err
}
