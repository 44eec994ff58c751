package cli

import (
	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"
)

type specListOptions struct {
	format string
}

func newSpecListCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &specListOptions{}
	cmd := &cobra.Command{
		Use:   "list [--format text|json]",
		Short: "List the SPECs, by slug; a file that does not parse is listed with its error",
		Args:  cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			return runSpecList(g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runSpecList(g *cmdbase.Globals, opts *specListOptions) error {
	repo, err := renarRepo(g)
	if err != nil {
		return err
	}
	rows, err := app.ListSpecs(repo)
	if err != nil {
		return err
	}
	return render.Specs(g.Stdout, opts.format, rows)
}
