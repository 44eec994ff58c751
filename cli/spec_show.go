package cli

import (
	"github.com/spf13/cobra"
	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/render"
)

type specShowOptions struct {
	slug   string
	format string
}

func newSpecShowCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &specShowOptions{}
	cmd := &cobra.Command{
		Use:   "show SLUG [--format text|json]",
		Short: "Show a SPEC's fields and body",
		Long:  "Exit codes: 0 shown, 2 no such SPEC, 3 its file does not parse (file:line).",
		Args:  cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			opts.slug = args[0]
			return runSpecShow(g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runSpecShow(g *cmdbase.Globals, opts *specShowOptions) error {
	repo, err := renarRepo(g)
	if err != nil {
		return err
	}
	d, s, err := repo.LoadSpec(opts.slug)
	if err != nil {
		return err
	}
	return render.Spec(g.Stdout, opts.format, d.Body, s)
}
