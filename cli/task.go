package cli

import "github.com/spf13/cobra"

func newTaskCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "task",
		Short: "Start, inspect and close tasks (task-start and task-done gates)",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newTaskStartCmd(g), newTaskShowCmd(g), newTaskListCmd(g), newTaskDoneCmd(g), newTaskFilesCmd(g), newTaskScopeCmd(g))
	return cmd
}
