package cli

import "github.com/spf13/cobra"

func newPolicyCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Evaluate, list, test and scaffold gate policies",
		Args:  usageArgs(cobra.NoArgs),
		// Runnable, so that cobra checks Args: an unknown subcommand is a
		// usage error, not a help page that exits 0.
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newPolicyEvalCmd(g), newPolicyListCmd(g), newPolicyTestCmd(g), newPolicyNewCmd(g))
	return cmd
}
