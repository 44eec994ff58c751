package cli

import (
	"github.com/spf13/cobra"
	"github.com/tausik/tausik/cli/internal/cmdbase"
)

func newSessionCmd(g *cmdbase.Globals) *cobra.Command {
	return cmdbase.NewGroupCmd("session", "Open, close and inspect the working session; write the handoff note",
		newSessionStartCmd(g), newSessionEndCmd(g), newSessionStatusCmd(g), newSessionHandoffCmd(g))
}
