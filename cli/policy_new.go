package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/policies"
)

type newOptions struct {
	name string
	lang string
}

func newPolicyNewCmd(g *globals) *cobra.Command {
	opts := &newOptions{}
	cmd := &cobra.Command{
		Use:   "new NAME --lang rego|cel",
		Short: "Scaffold a team gate in tausik/policies/NAME with passing fixtures",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			return runPolicyNew(g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.lang, "lang", "", "policy language: rego or cel")
	_ = cmd.MarkFlagRequired("lang")
	return cmd
}

func runPolicyNew(g *globals, opts *newOptions) error {
	root, err := g.projectRoot()
	if err != nil {
		return err
	}
	files, err := engine.Scaffold(root, opts.name, opts.lang, policies.FS)
	if err != nil {
		return err
	}
	for _, f := range files {
		fmt.Fprintf(g.stdout, "created %s\n", f)
	}
	fmt.Fprintf(g.stdout, "next: edit the policy, then run `tausik policy test --gate %s`\n", opts.name)
	return nil
}
