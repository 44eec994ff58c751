package cli

import (
	"github.com/spf13/cobra"
	"github.com/tausik/tausik/cli/internal/cmdbase"
)

func newAdaptCmd(g *cmdbase.Globals) *cobra.Command {
	return cmdbase.NewGroupCmd("adapt", "Write ADAPTs: signed interpretations of SPECs under renar/adapts/",
		newAdaptNewCmd(g), newAdaptStatusCmd(g), newAdaptSupersedeCmd(g), newAdaptSignCmd(g))
}
