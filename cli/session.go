package cli

import "github.com/spf13/cobra"

func newSessionCmd(g *globals) *cobra.Command {
	return newGroupCmd("session", "Open, close and inspect the working session; write the handoff note",
		newSessionStartCmd(g), newSessionEndCmd(g), newSessionStatusCmd(g), newSessionHandoffCmd(g))
}
