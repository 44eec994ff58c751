package cli

import "github.com/spf13/cobra"

func newKeyCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "key",
		Short: "Create and show the project's receipt signing key",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newKeyInitCmd(g), newKeyShowCmd(g))
	return cmd
}
