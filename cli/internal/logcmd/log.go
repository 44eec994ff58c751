// Package logcmd holds the log commands: list, show, export, verify,
// checkpoint, prove, verify-proof and report, over the decision log that
// internal/app opens and reads.
package logcmd

import (
	"context"
	"time"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"

	"github.com/spf13/cobra"
)

// New is the log command and its subcommands.
func New(g *cmdbase.Globals) *cobra.Command {
	return cmdbase.NewGroupCmd("log", "Read, export, verify, checkpoint and prove the decision log",
		newLogListCmd(g), newLogShowCmd(g), newLogExportCmd(g), newLogVerifyCmd(g),
		newLogCheckpointCmd(g), newLogProveCmd(g), newLogVerifyProofCmd(g), newLogReportCmd(g))
}

// logFilterFlags registers the filters list and export share.
func logFilterFlags(cmd *cobra.Command, q *app.LogQuery) {
	f := cmd.Flags()
	f.StringVar(&q.Gate, "gate", "", "decisions with a verdict for this gate")
	f.StringVar(&q.Outcome, "outcome", "", "with --gate: that gate's outcome; alone: any gate's (PASSED, FAILED, NOT_APPLICABLE, COULD_NOT_RUN)")
	f.StringVar(&q.Task, "task", "", "decisions about this task")
	f.StringVar(&q.Trigger, "trigger", "", "decisions for this trigger")
	f.StringVar(&q.Requester, "requester", "", "decisions asked for by this requester (cli, hook:claude…)")
	f.StringVar(&q.Result, "result", "", "blocked or passed: with --gate, that gate's verdict; alone, the decision's")
	f.StringVar(&q.Since, "since", "", "decisions since a duration ago (90m, 3h, 2d) or a time (RFC 3339, YYYY-MM-DD)")
	f.StringVar(&q.Between, "between", "", "decisions in [A,B): two times separated by a comma")
	f.IntVar(&q.Tail, "tail", 0, "only the newest N matches")
}

// openLog opens the decision log read-only and turns q into a filter.
func openLog(ctx context.Context, g *cmdbase.Globals, q app.LogQuery) (*app.Store, app.LogFilter, error) {
	f, err := q.Filter(time.Now())
	if err != nil {
		return nil, f, err
	}
	root, err := g.ProjectRoot()
	if err != nil {
		return nil, f, err
	}
	st, err := app.OpenLogStore(ctx, root, g.Getenv)
	return st, f, err
}
