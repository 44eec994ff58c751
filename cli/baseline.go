package cli

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"
)

func newBaselineCmd(g *cmdbase.Globals) *cobra.Command {
	var update, force bool
	var format string
	cmd := &cobra.Command{
		Use:   "baseline [--update | --force]",
		Short: "Record the blocking gates' current findings in tausik/baseline.json (a person's command)",
		Long: "Evaluates the enabled blocking code gates at the commit and task-done triggers over\n" +
			"the whole project and records their findings in tausik/baseline.json (commit it): a\n" +
			"finding the baseline holds does not block while it does not grow (docs/baseline.md).\n" +
			"Without a flag it records a baseline where there is none. --update only lowers the\n" +
			"existing one: drops the entries that vanished, lowers those that shrank, never adds or\n" +
			"raises one. --force rewrites it from today's findings, accepting new debt.\n" +
			"An agent's run is refused: a person changes the baseline.\n" +
			"Exit codes: 0 written, 1 refused, 2 usage, 3 policy/config/store error.",
		Args: cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cmdbase.CheckFormat(format, "text", "json"); err != nil {
				return err
			}
			if update && force {
				return cmdbase.UsageErr(errors.New("--update lowers the baseline, --force rewrites it: give one"))
			}
			mode := app.BaselineCreate
			switch {
			case update:
				mode = app.BaselineUpdate
			case force:
				mode = app.BaselineForce
			}
			return runBaseline(cmd.Context(), g, mode, format)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&update, "update", false, "only lower the existing baseline: drop vanished entries, lower shrunk ones")
	f.BoolVar(&force, "force", false, "rewrite the baseline from today's findings, accepting new debt")
	f.StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}

func runBaseline(ctx context.Context, g *cmdbase.Globals, mode app.BaselineMode, format string) error {
	e, err := g.OpenEngine(ctx, true)
	if err != nil {
		return err
	}
	defer e.Close()
	if err := g.JudgeGuardChange(ctx, e); err != nil {
		return err
	}
	rep, err := app.RecordBaseline(ctx, e, mode, g.Requester())
	if err != nil {
		return err
	}
	return render.Baseline(g.Stdout, format, rep)
}
