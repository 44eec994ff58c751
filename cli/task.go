package cli

import (
	"github.com/spf13/cobra"
	"github.com/tausik/tausik/cli/internal/cmdbase"
)

func newTaskCmd(g *cmdbase.Globals) *cobra.Command {
	return cmdbase.NewGroupCmd("task", "Start, inspect and close tasks (task-start and task-done gates)",
		newTaskStartCmd(g), newTaskShowCmd(g), newTaskListCmd(g), newTaskDoneCmd(g), newTaskFilesCmd(g), newTaskScopeCmd(g), newTaskLinkCmd(g))
}
