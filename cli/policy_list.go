package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"
)

type listOptions struct {
	format string
}

// gateListing is one row of `policy list`: the gate with its effective config.
type gateListing struct {
	Name        string         `json:"name"`
	Language    string         `json:"language"`
	Severity    string         `json:"severity"`
	Enabled     bool           `json:"enabled"`
	Triggers    []string       `json:"triggers"`
	Phase       string         `json:"phase"`
	Table       string         `json:"table"`
	Source      string         `json:"source"`
	Description string         `json:"description"`
	Prevents    string         `json:"prevents"`
	Facts       []string       `json:"facts"`
	Params      map[string]any `json:"params"`
	// Roots are, for a stack gate, the roots of its stack it judges here.
	Roots []string `json:"roots,omitempty"`
}

func newPolicyListCmd(g *globals) *cobra.Command {
	opts := &listOptions{}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List every gate with its effective configuration",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			return runPolicyList(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runPolicyList(ctx context.Context, g *globals, opts *listOptions) error {
	e, err := g.openEngine(ctx, false)
	if err != nil {
		return err
	}
	defer e.Close()
	rows := listGates(e)
	roots, err := app.StackRoots(ctx, e.Root())
	if err != nil {
		return err
	}
	for i := range rows {
		rows[i].Roots = roots[rows[i].Name]
	}
	for _, w := range e.ConfigWarnings() {
		fmt.Fprintf(g.stderr, "warning: %s\n", w)
	}
	if opts.format == "json" {
		return render.JSON(g.stdout, rows)
	}
	tw := tabwriter.NewWriter(g.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GATE\tLANG\tSEVERITY\tENABLED\tTRIGGERS\tTABLE\tSOURCE")
	for _, r := range rows {
		table := r.Table
		if table == "" {
			table = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%v\t%s\t%s\t%s\n", r.Name, r.Language, r.Severity, r.Enabled,
			strings.Join(r.Triggers, ","), table, r.Source)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rows {
		if len(r.Roots) > 0 {
			fmt.Fprintf(g.stdout, "%s judges %s\n", r.Name, strings.Join(r.Roots, ", "))
		}
	}
	return nil
}

func listGates(e *engine.Engine) []gateListing {
	var rows []gateListing
	for _, gate := range e.Gates() {
		eff, _ := e.Effective(gate.Name)
		rows = append(rows, gateListing{
			Name: gate.Name, Language: gate.Language, Severity: eff.Severity, Enabled: eff.Enabled,
			Triggers: eff.Triggers, Phase: gate.Phase, Table: gate.Table(), Source: gate.Source,
			Description: gate.Description, Prevents: gate.Prevents, Facts: gate.Facts, Params: eff.Params,
		})
	}
	return rows
}
