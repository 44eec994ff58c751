package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/internal/artifacts"
	"github.com/tausik/tausik/internal/render"
)

type specListOptions struct {
	format string
}

func newSpecListCmd(g *globals) *cobra.Command {
	opts := &specListOptions{}
	cmd := &cobra.Command{
		Use:   "list [--format text|json]",
		Short: "List the SPECs, by slug; a file that does not parse is listed with its error",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			return runSpecList(g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

// specRow is one SPEC as listed: its fields, or why its file did not parse.
type specRow struct {
	artifacts.Spec
	Error string `json:"error,omitempty"`
}

func runSpecList(g *globals, opts *specListOptions) error {
	repo, err := g.renarRepo()
	if err != nil {
		return err
	}
	slugs, err := repo.Slugs(artifacts.KindSpec)
	if err != nil {
		return err
	}
	rows := make([]specRow, 0, len(slugs))
	for _, slug := range slugs {
		_, s, err := repo.LoadSpec(slug)
		row := specRow{Spec: s}
		if err != nil {
			row.Spec = artifacts.Spec{File: artifacts.Rel(artifacts.KindSpec, slug), Slug: slug}
			row.Error = err.Error()
		}
		rows = append(rows, row)
	}
	if opts.format == "json" {
		return render.JSON(g.stdout, rows)
	}
	if len(rows) == 0 {
		_, err := fmt.Fprintf(g.stdout, "no SPECs in %s/ (`tausik spec new` writes one)\n", artifacts.SpecsDir)
		return err
	}
	tw := tabwriter.NewWriter(g.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SPEC\tTYPE\tSTATUS\tVERSION\tUPDATED\tTITLE")
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t(unreadable: %s)\n", r.Slug, r.Error)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Slug, r.Type, r.Status, r.Version, r.UpdatedAt, r.Title)
	}
	return tw.Flush()
}
