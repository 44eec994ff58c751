package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/engine"
)

type logShowOptions struct {
	id     string
	format string
}

func newLogShowCmd(g *globals) *cobra.Command {
	opts := &logShowOptions{}
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show one decision by id or unique prefix (at least 6 characters)",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			opts.id = args[0]
			return runLogShow(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runLogShow(ctx context.Context, g *globals, opts *logShowOptions) error {
	st, _, err := g.openLog(ctx, app.LogQuery{})
	if err != nil {
		return err
	}
	defer st.Close()
	e, err := app.ShowLog(ctx, st, opts.id)
	if err != nil {
		return err
	}
	if opts.format == "json" {
		return render.JSON(g.stdout, struct {
			entryJSON
			Decision json.RawMessage `json:"decision"`
		}{toEntryJSON(e), e.Body})
	}
	fmt.Fprintf(g.stdout, "decision  %s (seq %d)\ntime      %s\ntrigger   %s\ntask      %s\nrequester %s\ngit head  %s\nhash      %s\nprev hash %s\n",
		e.ID, e.Seq, e.Time.UTC().Format("2006-01-02T15:04:05.000Z"), e.Trigger, render.OrDash(e.Task), e.Requester, render.OrDash(e.GitHead), e.Hash, e.PrevHash)
	var d engine.Decision
	if err := json.Unmarshal(e.Body, &d); err != nil {
		return fmt.Errorf("decision %s: body: %w", e.ID, err)
	}
	if len(d.Request.Bypass) > 0 {
		fmt.Fprintf(g.stdout, "bypass    %v\n", d.Request.Bypass)
	}
	if len(d.Request.Tasks) > 0 {
		fmt.Fprintf(g.stdout, "active    %s\n", strings.Join(d.Request.Tasks, " "))
	}
	if t := d.Request.Tool; t != nil {
		fmt.Fprintf(g.stdout, "host      %s\ntool      %s (%s)\n", render.OrDash(t.Host), t.Tool, t.Kind)
		if t.Command != "" {
			fmt.Fprintf(g.stdout, "command   %s\n", strings.ReplaceAll(t.Command, "\n", "\n          "))
		}
		for _, p := range t.Targets {
			fmt.Fprintf(g.stdout, "target    %s\n", p)
		}
		for _, u := range t.Unknown {
			fmt.Fprintf(g.stdout, "unknown   %s (%s)\n", u.Text, u.Reason)
		}
	}
	fmt.Fprintln(g.stdout)
	return render.Text(g.stdout, &d)
}
