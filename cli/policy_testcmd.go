package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/policytest"
	"github.com/tausik/tausik/internal/render"
)

type testOptions struct {
	gates        []string
	format       string
	verbose      bool
	requireTools bool
}

func newPolicyTestCmd(g *globals) *cobra.Command {
	opts := &testOptions{}
	cmd := &cobra.Command{
		Use:   "test [--gate NAME]...",
		Short: "Run every gate's fixtures and check the closed list; exit 4 on any failure",
		Long: "Runs each fixture of each gate (hermetically, in a temporary copy) and checks that\n" +
			"every gate is COVERED (a fixture that must come out FAILED and one that must come\n" +
			"out PASSED) or EXCUSED (a reason and the Go tests that prove it red and green).",
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(opts.format, "text", "json"); err != nil {
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

func runPolicyTest(ctx context.Context, g *globals, opts *testOptions) error {
	e, err := g.openEngine(ctx, false)
	if err != nil {
		return err
	}
	defer e.Close()
	rep, err := policytest.Run(ctx, e, policytest.Options{Gates: opts.gates, RequireTools: opts.requireTools})
	if err != nil {
		return err
	}
	if opts.format == "json" {
		err = render.JSON(g.stdout, rep)
	} else {
		err = renderTestText(g.stdout, rep, opts.verbose)
	}
	if err != nil {
		return err
	}
	if !rep.OK() {
		return errTestsFailed
	}
	return nil
}

func renderTestText(w io.Writer, rep *policytest.Report, verbose bool) error {
	var b strings.Builder
	for _, gr := range rep.Gates {
		for _, c := range gr.Cases {
			name := gr.Gate + "/" + c.Name
			if c.Skipped != "" {
				fmt.Fprintf(&b, "skip  %s (%s)\n", name, c.Skipped)
				continue
			}
			if c.OK {
				if verbose {
					fmt.Fprintf(&b, "ok    %s (%s)\n", name, c.Outcome)
				}
				continue
			}
			fmt.Fprintf(&b, "FAIL  %s\n", name)
			for _, p := range c.Problems {
				fmt.Fprintf(&b, "      %s\n", p)
			}
		}
		switch {
		case len(gr.Problems) > 0:
			fmt.Fprintf(&b, "FAIL  %s (closed list)\n", gr.Gate)
			for _, p := range gr.Problems {
				fmt.Fprintf(&b, "      %s\n", p)
			}
		case verbose && gr.Table == engine.TableExcused:
			fmt.Fprintf(&b, "ok    %s (EXCUSED: %s, %s)\n", gr.Gate, gr.Excused.RedTest, gr.Excused.GreenTest)
		}
	}
	if len(rep.Changed) > 0 {
		fmt.Fprintf(&b, "FAIL  the working tree changed while the fixtures ran (a fixture's tools wrote outside their temp copy): %s\n",
			strings.Join(rep.Changed, ", "))
	}
	if !rep.Confined {
		fmt.Fprintf(&b, "note  fixture tools ran unconfined, no sandbox on this machine (%s); only the working-tree snapshot guards against their writes\n",
			rep.Sandbox)
	}
	fmt.Fprintf(&b, "%d passed, %d failed", rep.Passed, rep.Failed)
	if rep.Skipped > 0 {
		fmt.Fprintf(&b, ", %d skipped for missing tools (--require-tools fails them)", rep.Skipped)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}
