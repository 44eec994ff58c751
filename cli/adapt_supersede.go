package cli

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/tausik/tausik/cli/internal/cmdbase"
)

type adaptSupersedeOptions struct {
	slug, by, rationale string
}

func newAdaptSupersedeCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &adaptSupersedeOptions{}
	cmd := &cobra.Command{
		Use:   "supersede SLUG --by NEW --rationale TEXT",
		Short: "Replace an ADAPT by another, saying why",
		Long:  "Exit codes: 0 done, 2 an empty rationale, an unknown ADAPT, one already superseded.",
		Args:  cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.slug = args[0]
			return runAdaptSupersede(g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.by, "by", "", "the ADAPT that replaces it")
	cmd.Flags().StringVar(&opts.rationale, "rationale", "", "why the old reading no longer holds")
	_ = cmd.MarkFlagRequired("by")
	_ = cmd.MarkFlagRequired("rationale")
	return cmd
}

func runAdaptSupersede(g *cmdbase.Globals, opts *adaptSupersedeOptions) error {
	repo, err := renarRepo(g)
	if err != nil {
		return err
	}
	if err := repo.Supersede(opts.slug, opts.by, opts.rationale); err != nil {
		return err
	}
	_, err = fmt.Fprintf(g.Stdout, "ADAPT %s is superseded by %s\n", opts.slug, opts.by)
	return err
}
