package cli

import "github.com/spf13/cobra"

func newPolicyCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Evaluate, list, test and scaffold gate policies",
		Args:  usageArgs(cobra.NoArgs),
	}
	cmd.AddCommand(newPolicyEvalCmd(g), newPolicyListCmd(g), newPolicyTestCmd(g), newPolicyNewCmd(g))
	return cmd
}
