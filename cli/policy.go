package cli

import "github.com/spf13/cobra"

func newPolicyCmd(g *globals) *cobra.Command {
	return newGroupCmd("policy", "Evaluate, list, explain, test, mutation-test and scaffold gate policies",
		newPolicyEvalCmd(g), newPolicyListCmd(g), newPolicyTestCmd(g), newPolicyMutateCmd(g), newPolicyNewCmd(g), newPolicyExplainCmd(g))
}
