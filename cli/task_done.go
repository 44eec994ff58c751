package cli

import (
	"context"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app/taskflow"

	"github.com/spf13/cobra"
	"github.com/tausik/tausik/internal/render"
)

type taskDoneOptions struct {
	slug        string
	noChangelog bool
	format      string
}

func newTaskDoneCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &taskDoneOptions{}
	cmd := &cobra.Command{
		Use:   "done SLUG [--no-changelog]",
		Short: "Close a task if the task-done gates allow it",
		Long: "Judges the task-done gates (verify_first, filesize…) over the task's declared files\n" +
			"with git history since the task started, records the decision, and marks the task\n" +
			"done only if no gate blocks. --no-changelog waives the changelog gate; the decision\n" +
			"records the waiver.\n" +
			"Exit codes: 0 closed, 1 blocked, 2 usage (unknown or closed task), 3 store error.",
		Args: cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			opts.slug = args[0]
			return runTaskDone(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.noChangelog, "no-changelog", false, "waive the changelog gate for this close (recorded as a bypass)")
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runTaskDone(ctx context.Context, g *cmdbase.Globals, opts *taskDoneOptions) error {
	e, err := g.OpenEngine(ctx, true)
	if err != nil {
		return err
	}
	defer e.Close()
	req := taskflow.DoneRequest{Slug: opts.slug, Requester: g.Requester()}
	if opts.noChangelog {
		req.Bypass = []string{taskflow.GateChangelog}
	}
	out, err := taskflow.Done(ctx, e, req)
	if out == nil || out.Decision == nil {
		return err
	}
	if opts.format != "json" {
		g.Warn(out.Decision)
	}
	if rerr := render.TaskOutcome(g.Stdout, opts.format, out, "done", "not closed"); rerr != nil {
		return rerr
	}
	return cmdbase.VerdictErr(err, out.Blocked)
}
