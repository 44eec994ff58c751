package cli

import (
	"github.com/spf13/cobra"
	"github.com/tausik/tausik/internal/render"
)

type specShowOptions struct {
	slug   string
	format string
}

func newSpecShowCmd(g *globals) *cobra.Command {
	opts := &specShowOptions{}
	cmd := &cobra.Command{
		Use:   "show SLUG [--format text|json]",
		Short: "Show a SPEC's fields and body",
		Long:  "Exit codes: 0 shown, 2 no such SPEC, 3 its file does not parse (file:line).",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			opts.slug = args[0]
			return runSpecShow(g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runSpecShow(g *globals, opts *specShowOptions) error {
	repo, err := g.renarRepo()
	if err != nil {
		return err
	}
	d, s, err := repo.LoadSpec(opts.slug)
	if err != nil {
		return err
	}
	return render.Spec(g.stdout, opts.format, d.Body, s)
}
