package cli

import "github.com/spf13/cobra"

func newSessionCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "session",
		Short: "Open, close and inspect the working session; write the handoff note",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newSessionStartCmd(g), newSessionEndCmd(g), newSessionStatusCmd(g), newSessionHandoffCmd(g))
	return cmd
}
