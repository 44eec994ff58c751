package cli

import "github.com/spf13/cobra"

func newTaskCmd(g *globals) *cobra.Command {
	return newGroupCmd("task", "Start, inspect and close tasks (task-start and task-done gates)",
		newTaskStartCmd(g), newTaskShowCmd(g), newTaskListCmd(g), newTaskDoneCmd(g), newTaskFilesCmd(g), newTaskScopeCmd(g), newTaskLinkCmd(g))
}
