package cli

import (
	"github.com/spf13/cobra"
	"github.com/tausik/tausik/cli/internal/cmdbase"
)

func newKeyCmd(g *cmdbase.Globals) *cobra.Command {
	return cmdbase.NewGroupCmd("key", "Create and show the project's receipt signing key",
		newKeyInitCmd(g), newKeyShowCmd(g))
}
