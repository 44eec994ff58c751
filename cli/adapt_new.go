package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/artifacts"
)

type adaptNewOptions struct {
	artifacts.NewAdapt
}

func newAdaptNewCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &adaptNewOptions{}
	cmd := &cobra.Command{
		Use:   "new SLUG --spec SPEC [--parent ADAPT] [--title TEXT] [--task SLUG]...",
		Short: "Write a new ADAPT (draft): a base reading of a SPEC, or a delta of a parent ADAPT",
		Long: "A base ADAPT has delta_n 0; with --parent it is a delta whose delta_n is the parent's + 1\n" +
			"and whose SPEC is the parent's unless --spec names one. --task links a task to it.\n" +
			"Exit codes: 0 written, 2 a bad slug, an unknown SPEC or parent, a superseded parent, an existing ADAPT.",
		Args: cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Slug = args[0]
			return runAdaptNew(g, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Spec, "spec", "", "the SPEC it interprets (its tz_ref)")
	f.StringVar(&opts.Parent, "parent", "", "the ADAPT it extends (a delta)")
	f.StringVar(&opts.Title, "title", "", "what the reading is about (default: Interpretation of SPEC)")
	f.StringArrayVar(&opts.Tasks, "task", nil, "a task that works to this reading (repeatable)")
	return cmd
}

func runAdaptNew(g *cmdbase.Globals, opts *adaptNewOptions) error {
	repo, err := renarRepo(g)
	if err != nil {
		return err
	}
	file, err := repo.CreateAdapt(opts.NewAdapt)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(g.Stdout, "wrote %s\n", file)
	return err
}
