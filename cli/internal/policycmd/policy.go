// Package policycmd holds the policy commands: eval, list, test, mutate,
// new and explain, over the engine the project opens.
package policycmd

import (
	"github.com/spf13/cobra"
	"github.com/tausik/tausik/cli/internal/cmdbase"
)

// New is the policy command and its subcommands.
func New(g *cmdbase.Globals) *cobra.Command {
	return cmdbase.NewGroupCmd("policy", "Evaluate, list, explain, test, mutation-test and scaffold gate policies",
		newPolicyEvalCmd(g), newPolicyListCmd(g), newPolicyTestCmd(g), newPolicyMutateCmd(g), newPolicyNewCmd(g), newPolicyExplainCmd(g))
}
