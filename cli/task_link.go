package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/artifacts"
)

type taskLinkOptions struct {
	task, spec, adapt string
}

func newTaskLinkCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &taskLinkOptions{}
	cmd := &cobra.Command{
		Use:   "link SLUG --spec SPEC | --adapt ADAPT",
		Short: "Link a task to a SPEC or an ADAPT",
		Long: "An active task records the link in its own specs/adapts; a closed task cannot change,\n" +
			"so the link is written into the SPEC's linked_tasks or the ADAPT's links.\n" +
			"Exit codes: 0 linked, 2 neither or both flags, an unknown task, SPEC or ADAPT, 3 store error.",
		Args: cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.task = args[0]
			if (opts.spec == "") == (opts.adapt == "") {
				return cmdbase.UsageErr(errors.New("name exactly one of --spec SPEC or --adapt ADAPT"))
			}
			return runTaskLink(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.spec, "spec", "", "the SPEC the task implements")
	cmd.Flags().StringVar(&opts.adapt, "adapt", "", "the ADAPT the task works to")
	return cmd
}

func runTaskLink(ctx context.Context, g *cmdbase.Globals, opts *taskLinkOptions) error {
	repo, err := renarRepo(g)
	if err != nil {
		return err
	}
	st, _, err := g.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	kind, slug := artifacts.KindSpec, opts.spec
	if opts.adapt != "" {
		kind, slug = artifacts.KindAdapt, opts.adapt
	}
	l, err := repo.LinkTask(ctx, st, opts.task, kind, slug)
	if err != nil {
		return err
	}
	where := "in the task record"
	if l.Where != "task" {
		where = "in " + l.Where + " (the task is closed)"
	}
	if l.Already {
		_, err = fmt.Fprintf(g.Stdout, "task %s was already linked to %s %s\n", opts.task, kind, slug)
		return err
	}
	_, err = fmt.Fprintf(g.Stdout, "task %s linked to %s %s %s\n", opts.task, kind, slug, where)
	return err
}
