package cli

import "github.com/spf13/cobra"

func newKeyCmd(g *globals) *cobra.Command {
	return newGroupCmd("key", "Create and show the project's receipt signing key",
		newKeyInitCmd(g), newKeyShowCmd(g))
}
