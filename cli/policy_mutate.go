package cli

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/internal/policytest"
	"github.com/tausik/tausik/internal/render"
)

type mutateOptions struct {
	gates    []string
	format   string
	minScore float64
	timeout  time.Duration
}

func newPolicyMutateCmd(g *globals) *cobra.Command {
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
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			if opts.minScore < 0 || opts.minScore > 1 {
				return usageErr(fmt.Errorf("--min-score %v: a score lies between 0 and 1", opts.minScore))
			}
			if opts.timeout < 0 {
				return usageErr(fmt.Errorf("--timeout %v: must not be negative", opts.timeout))
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

func runPolicyMutate(ctx context.Context, g *globals, opts *mutateOptions) error {
	e, err := g.openEngine(ctx, false)
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
	if opts.format == "json" {
		err = render.JSON(g.stdout, rep)
	} else {
		err = renderMutateText(g.stdout, rep, below, opts.minScore, time.Since(t0))
	}
	if err != nil {
		return err
	}
	if !rep.OK() || len(below) > 0 {
		return errTestsFailed
	}
	return nil
}

// renderMutateText prints the report the way PIT and Stryker do: one table
// row per gate, then every survivor as a diff with where it is and what it
// passed.
func renderMutateText(w io.Writer, rep *policytest.MutationReport, below []string, minScore float64, took time.Duration) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%-20s %7s %6s %8s %9s %10s %6s\n", "gate", "mutants", "killed", "survived", "discarded", "equivalent", "score")
	for _, gr := range rep.Gates {
		if gr.NotMutated != "" {
			fmt.Fprintf(&b, "%-20s %s\n", gr.Gate, "not mutated: "+gr.NotMutated)
			continue
		}
		fmt.Fprintf(&b, "%-20s %7d %6d %8d %9d %10d %6.2f\n", gr.Gate, gr.Mutants, gr.Killed, len(gr.Survived), gr.Discarded, gr.Equivalent, gr.Score)
	}
	fmt.Fprintf(&b, "%-20s %7d %6d %8d %9s %10s %6.2f\n", "all", rep.Mutants, rep.Killed, rep.Survived, "", "", rep.Score)
	for _, gr := range rep.Gates {
		for _, s := range gr.Survived {
			fmt.Fprintf(&b, "\nSURVIVED  %s:%d  [%s]\n  - %s\n  + %s\n  passed: %s\n", s.File, s.Line, s.Operator, s.Original, s.Mutant, passed(s.Fixtures))
		}
	}
	for _, gr := range rep.Gates {
		for _, p := range gr.Problems {
			fmt.Fprintf(&b, "\nPROBLEM   %s: %s\n", gr.Gate, p)
		}
	}
	fmt.Fprintf(&b, "\n%d mutants, %d killed, %d survived: score %.2f (%.1fs on %d cores)\n", rep.Mutants, rep.Killed, rep.Survived, rep.Score, took.Seconds(), runtime.GOMAXPROCS(0))
	if len(below) > 0 {
		fmt.Fprintf(&b, "below --min-score %g: %s\n", minScore, strings.Join(below, ", "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// passed lists the fixtures a survivor passed, shortened past a handful.
func passed(names []string) string {
	if len(names) > 6 {
		return strings.Join(names[:6], ", ") + fmt.Sprintf(" and %d more (all %d)", len(names)-6, len(names))
	}
	return strings.Join(names, ", ")
}
