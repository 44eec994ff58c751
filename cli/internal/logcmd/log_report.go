package logcmd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/app/report"
)

type logReportOptions struct {
	query  app.LogQuery
	verify logVerifyOptions
	format string
	out    string
	stamp  bool
}

func newLogReportCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &logReportOptions{}
	cmd := &cobra.Command{
		Use:   "report [--since T | --between A,B] [--checkpoint FILE]... [--git-ref REF] [--pub KEY] [--format html|markdown] [--out FILE]",
		Short: "Write the audit report: verification, blocks, task trails, waivers, as one HTML page or Markdown",
		Long: "Verifies the whole log as `log verify` does (against each --checkpoint and the checkpoints on\n" +
			"--git-ref), then reports the decisions of the range: decisions over time and verdicts by gate\n" +
			"(inline SVG charts), blocks by gate, requester and task, each task's trail, waivers, refused\n" +
			"weakenings, scope and tier changes and gates a tier switched off. Every count links to the\n" +
			"`tausik log list` command that returns it. The page is self-contained (no script, nothing\n" +
			"fetched) and the same bytes for the same log and flags unless --stamp prints the time.\n" +
			"Exit codes: 0 written (even when the log is broken: the report says so), 2 usage, 3 store.",
		Args: cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cmdbase.CheckFormat(opts.format, "html", "markdown"); err != nil {
				return err
			}
			return runLogReport(cmd.Context(), g, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.query.Since, "since", "", "decisions since a duration ago (90m, 3h, 2d) or a time (RFC 3339, YYYY-MM-DD)")
	f.StringVar(&opts.query.Between, "between", "", "decisions in [A,B): two times separated by a comma")
	f.StringArrayVar(&opts.verify.checkpoints, "checkpoint", nil, "a checkpoint the log must extend (repeatable)")
	f.StringVar(&opts.verify.gitRef, "git-ref", "", "a git ref whose checkpoints the log must all extend")
	f.StringVar(&opts.verify.pub, "pub", "", "check checkpoint signatures against this key")
	f.StringVar(&opts.format, "format", "html", "output format: html or markdown")
	f.StringVarP(&opts.out, "out", "o", "", "write to FILE instead of stdout")
	f.BoolVar(&opts.stamp, "stamp", false, "print the time the report was made (the page then differs run to run)")
	return cmd
}

func runLogReport(ctx context.Context, g *cmdbase.Globals, opts *logReportOptions) error {
	now := time.Now()
	flt, err := opts.query.Filter(now)
	if err != nil {
		return err
	}
	req := app.ReportRequest{Since: flt.Since, Until: flt.Until}
	if req.Trusted, req.Checkpoints, err = loadCheckpoints(ctx, g, &opts.verify); err != nil {
		return err
	}
	req.VerifyArgs = opts.verify.sources().Args()
	if opts.stamp {
		req.Generated = now
	}
	st, _, err := openLog(ctx, g, app.LogQuery{})
	if err != nil {
		return err
	}
	defer st.Close()
	rep, err := app.BuildReport(ctx, st, req)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := report.Write(&buf, opts.format, rep); err != nil {
		return err
	}
	if opts.out == "" {
		_, err = g.Stdout.Write(buf.Bytes())
		return err
	}
	if err := os.WriteFile(opts.out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", opts.out, err)
	}
	return nil
}
