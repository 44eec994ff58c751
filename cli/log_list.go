package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type logListOptions struct {
	query  app.LogQuery
	format string
}

func newLogListCmd(g *globals) *cobra.Command {
	opts := &logListOptions{}
	cmd := &cobra.Command{
		Use:   "list [--gate G] [--outcome O] [--task T] [--since 3h | --between A,B] [--tail N]",
		Short: "List decisions, oldest first",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			return runLogList(cmd.Context(), g, opts)
		},
	}
	logFilterFlags(cmd, &opts.query)
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

// entryJSON is one decision-log row without its body.
type entryJSON struct {
	Seq       int64         `json:"seq"`
	ID        string        `json:"decision_id"`
	Time      string        `json:"time"`
	Trigger   string        `json:"trigger"`
	Task      string        `json:"task"`
	Requester string        `json:"requester"`
	GitHead   string        `json:"git_head"`
	ExitCode  int           `json:"exit_code"`
	Blocked   bool          `json:"blocked"`
	Gates     []gateRowJSON `json:"gates"`
	PrevHash  string        `json:"prev_hash"`
	Hash      string        `json:"hash"`
}

type gateRowJSON struct {
	Name     string `json:"name"`
	Outcome  string `json:"outcome"`
	Severity string `json:"severity"`
	Blocks   bool   `json:"blocks"`
}

func toEntryJSON(e app.LogEntry) entryJSON {
	out := entryJSON{Seq: e.Seq, ID: e.ID, Time: e.Time.UTC().Format("2006-01-02T15:04:05.000000000Z"), Trigger: e.Trigger,
		Task: e.Task, Requester: e.Requester, GitHead: e.GitHead, ExitCode: e.ExitCode, Blocked: e.Blocked,
		Gates: make([]gateRowJSON, 0, len(e.Gates)), PrevHash: e.PrevHash, Hash: e.Hash}
	for _, gv := range e.Gates {
		out.Gates = append(out.Gates, gateRowJSON{gv.Name, string(gv.Outcome), string(gv.Severity), gv.Blocks})
	}
	return out
}

func runLogList(ctx context.Context, g *globals, opts *logListOptions) error {
	st, f, err := g.openLog(ctx, opts.query)
	if err != nil {
		return err
	}
	defer st.Close()
	entries, err := app.ListLog(ctx, st, f)
	if err != nil {
		return err
	}
	if opts.format == "json" {
		rows := make([]entryJSON, 0, len(entries))
		for _, e := range entries {
			rows = append(rows, toEntryJSON(e))
		}
		return render.JSON(g.stdout, rows)
	}
	if len(entries) == 0 {
		_, err := fmt.Fprintln(g.stdout, "no decisions match")
		return err
	}
	tw := tabwriter.NewWriter(g.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SEQ\tTIME\tDECISION\tTRIGGER\tTASK\tRESULT\tGATES")
	for _, e := range entries {
		result := "passed"
		if e.Blocked {
			result = "blocked"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Seq, render.Stamp(e.Time), e.ID, e.Trigger, render.OrDash(e.Task), result, gateSummary(e.Gates))
	}
	return tw.Flush()
}

// gateSummary names the gates that did not pass, or counts the passes.
func gateSummary(gates []app.GateVerdict) string {
	var odd []string
	for _, gv := range gates {
		if gv.Outcome != app.OutcomePassed {
			odd = append(odd, gv.Name+":"+string(gv.Outcome))
		}
	}
	if len(odd) == 0 {
		return fmt.Sprintf("%d passed", len(gates))
	}
	return strings.Join(odd, " ")
}
