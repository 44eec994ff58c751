package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/artifacts"
)

type specNewOptions struct {
	artifacts.NewSpec
}

func newSpecNewCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &specNewOptions{}
	cmd := &cobra.Command{
		Use:   "new SLUG --type TYPE --title TEXT [--status draft|active] [--task SLUG]...",
		Short: "Write a new SPEC (renar/specs/SLUG.md), version 1",
		Long: "Writes renar/specs/SLUG.md with its front matter and a body to fill in.\n" +
			"Types: " + strings.Join(artifacts.SpecTypes, " ") + ". Statuses: " + strings.Join(artifacts.SpecStatuses, " ") + ".\n" +
			"Exit codes: 0 written, 2 a bad value or an existing SPEC.",
		Args: cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Slug = args[0]
			return runSpecNew(g, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Type, "type", "", "one of "+strings.Join(artifacts.SpecTypes, ", "))
	f.StringVar(&opts.Title, "title", "", "the requirement in one line")
	f.StringVar(&opts.Status, "status", "draft", "one of "+strings.Join(artifacts.SpecStatuses, ", "))
	f.StringArrayVar(&opts.Tasks, "task", nil, "a task this SPEC is linked to (repeatable)")
	_ = cmd.MarkFlagRequired("type")
	_ = cmd.MarkFlagRequired("title")
	return cmd
}

func runSpecNew(g *cmdbase.Globals, opts *specNewOptions) error {
	repo, err := renarRepo(g)
	if err != nil {
		return err
	}
	file, err := repo.CreateSpec(opts.NewSpec)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(g.Stdout, "wrote %s\n", file)
	return err
}
