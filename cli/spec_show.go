package cli

import (
	"fmt"
	"strings"

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
	if opts.format == "json" {
		return render.JSON(g.stdout, s)
	}
	var b strings.Builder
	for _, kv := range [][2]string{
		{"spec", s.Slug + " (" + s.Status + ")"}, {"type", s.Type}, {"version", s.Version}, {"title", s.Title},
		{"created", s.CreatedAt}, {"updated", s.UpdatedAt}, {"tasks", render.OrNone(s.LinkedTasks)}, {"file", s.File},
	} {
		fmt.Fprintf(&b, "%-8s %s\n", kv[0], kv[1])
	}
	fmt.Fprintf(&b, "\n%s", d.Body)
	_, err = fmt.Fprint(g.stdout, b.String())
	return err
}
