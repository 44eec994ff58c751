package cli

import (
	"context"
	"fmt"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type taskListOptions struct {
	status string
	format string
}

func newTaskListCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &taskListOptions{}
	cmd := &cobra.Command{
		Use:   "list [--status active|done|abandoned|all]",
		Short: "List tasks, oldest first",
		Args:  cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			if err := cmdbase.CheckFormat(opts.status, "active", "done", "abandoned", "all"); err != nil {
				return cmdbase.UsageErr(fmt.Errorf("--status %q is not one of active, done, abandoned, all", opts.status))
			}
			return runTaskList(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.status, "status", "all", "active, done, abandoned or all")
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runTaskList(ctx context.Context, g *cmdbase.Globals, opts *taskListOptions) error {
	status := opts.status
	if status == "all" {
		status = ""
	}
	st, _, err := g.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	tasks, err := app.ListTasks(ctx, st, status)
	if err != nil {
		return err
	}
	return render.Tasks(g.Stdout, opts.format, tasks)
}
