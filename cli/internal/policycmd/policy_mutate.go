package policycmd

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/policytest"
	"github.com/tausik/tausik/internal/render"
)

type mutateOptions struct {
	gates    []string
	format   string
	minScore float64
	timeout  time.Duration
}

func newPolicyMutateCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &mutateOptions{}
	cmd := &cobra.Command{
		Use:   "mutate [--gate NAME]... [--min-score S]",
		Short: "Mutation-test gate policies: does some fixture notice each small edit of the policy?",
		Long: "Makes mutants of each gate's policy on its syntax tree (a comparison flipped, a bound\n" +
			"moved by one, a condition negated or dropped, a rule removed, a quantifier swapped, a\n" +
			"compared string changed) and runs the gate's fixtures (an excused gate's red and green\n" +
			"Go tests) against each. A mutant no fixture notices survives: a rule the fixtures do not\n" +
			"pin down. Exit 4 when a gate scores below --min-score or has a problem (a fixture\n" +
			"failing on the unmutated policy, a stale mutants.yaml declaration). See docs/mutation.md.",
		Args: cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			if opts.minScore < 0 || opts.minScore > 1 {
				return cmdbase.UsageErr(fmt.Errorf("--min-score %v: a score lies between 0 and 1", opts.minScore))
			}
			if opts.timeout < 0 {
				return cmdbase.UsageErr(fmt.Errorf("--timeout %v: must not be negative", opts.timeout))
			}
			return runPolicyMutate(cmd.Context(), g, opts)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&opts.gates, "gate", nil, "mutate only this gate (repeatable)")
	f.StringVar(&opts.format, "format", "text", "output format: text or json")
	f.Float64Var(&opts.minScore, "min-score", 0, "exit 4 when a gate's score (killed/(killed+survived)) is below this")
	f.DurationVar(&opts.timeout, "timeout", policytest.DefaultMutantTimeout, "time limit of one mutant's run; a mutant over it counts as killed")
	return cmd
}

func runPolicyMutate(ctx context.Context, g *cmdbase.Globals, opts *mutateOptions) error {
	e, err := g.OpenEngine(ctx, false)
	if err != nil {
		return err
	}
	defer e.Close()
	t0 := time.Now()
	rep, err := policytest.Mutate(ctx, e, policytest.MutateOptions{Gates: opts.gates, Timeout: opts.timeout})
	if err != nil {
		return err
	}
	below := rep.Below(opts.minScore)
	if err := render.Mutation(g.Stdout, opts.format, rep, below, opts.minScore, time.Since(t0)); err != nil {
		return err
	}
	if !rep.OK() || len(below) > 0 {
		return cmdbase.ErrTestsFailed
	}
	return nil
}
