package cli

import "github.com/spf13/cobra"

func newAdaptCmd(g *globals) *cobra.Command {
	return newGroupCmd("adapt", "Write ADAPTs: signed interpretations of SPECs under renar/adapts/",
		newAdaptNewCmd(g), newAdaptStatusCmd(g), newAdaptSupersedeCmd(g), newAdaptSignCmd(g))
}
