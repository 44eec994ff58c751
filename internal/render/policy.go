package render

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/policytest"
)

// GateList writes every gate in a table, then the roots each stack gate
// judges; or the rows as JSON.
func GateList(w io.Writer, format string, rows []app.GateListing) error {
	if format == "json" {
		return JSON(w, rows)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
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
			fmt.Fprintf(w, "%s judges %s\n", r.Name, strings.Join(r.Roots, ", "))
		}
	}
	return nil
}

// PolicyTest writes the fixtures' results (the failing ones, every one
// when verbose) and the closed list's problems; or the report as JSON.
func PolicyTest(w io.Writer, format string, rep *policytest.Report, verbose bool) error {
	if format == "json" {
		return JSON(w, rep)
	}
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
		case verbose && gr.Table == gate.TableExcused:
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

// Mutation writes each gate's mutation score, the surviving mutants and the
// problems, how long it took, and the gates below minScore; or the report
// as JSON.
func Mutation(w io.Writer, format string, rep *policytest.MutationReport, below []string, minScore float64, took time.Duration) error {
	if format == "json" {
		return JSON(w, rep)
	}
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
