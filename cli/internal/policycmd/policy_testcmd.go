package policycmd

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/policytest"
	"github.com/tausik/tausik/internal/render"
)

type testOptions struct {
	gates        []string
	format       string
	verbose      bool
	requireTools bool
}

func newPolicyTestCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &testOptions{}
	cmd := &cobra.Command{
		Use:   "test [--gate NAME]...",
		Short: "Run every gate's fixtures and check the closed list; exit 4 on any failure",
		Long: "Runs each fixture of each gate (hermetically, in a temporary copy) and checks that\n" +
			"every gate is COVERED (a fixture that must come out FAILED and one that must come\n" +
			"out PASSED) or EXCUSED (a reason and the Go tests that prove it red and green).",
		Args: cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			return runPolicyTest(cmd.Context(), g, opts)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&opts.gates, "gate", nil, "test only this gate (repeatable)")
	f.StringVar(&opts.format, "format", "text", "output format: text or json")
	f.BoolVarP(&opts.verbose, "verbose", "v", false, "list passing fixtures too")
	f.BoolVar(&opts.requireTools, "require-tools", false, "fail, rather than skip, a fixture whose tools (case.yaml requires) are missing")
	return cmd
}

func runPolicyTest(ctx context.Context, g *cmdbase.Globals, opts *testOptions) error {
	e, err := g.OpenEngine(ctx, false)
	if err != nil {
		return err
	}
	defer e.Close()
	rep, err := policytest.Run(ctx, e, policytest.Options{Gates: opts.gates, RequireTools: opts.requireTools})
	if err != nil {
		return err
	}
	if err := render.PolicyTest(g.Stdout, opts.format, rep, opts.verbose); err != nil {
		return err
	}
	if !rep.OK() {
		return cmdbase.ErrTestsFailed
	}
	return nil
}
