package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/artifacts"
)

type adaptStatusOptions struct {
	slug, status string
}

func newAdaptStatusCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &adaptStatusOptions{}
	return &cobra.Command{
		Use:   "status SLUG " + strings.Join(artifacts.AdaptStatuses, "|"),
		Short: "Move an ADAPT to a status",
		Long: "approved and frozen need a valid architect signature (`tausik adapt sign`);\n" +
			"superseded goes through `tausik adapt supersede`, which records the successor and why.\n" +
			"Exit codes: 0 done, 2 a bad or refused status, no such ADAPT.",
		Args: cmdbase.UsageArgs(cobra.ExactArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.slug, opts.status = args[0], args[1]
			return runAdaptStatus(g, opts)
		},
	}
}

func runAdaptStatus(g *cmdbase.Globals, opts *adaptStatusOptions) error {
	repo, err := renarRepo(g)
	if err != nil {
		return err
	}
	changed, err := repo.SetAdaptStatus(opts.slug, opts.status)
	if err != nil {
		return err
	}
	if !changed {
		_, err = fmt.Fprintf(g.Stdout, "ADAPT %s is already %s\n", opts.slug, opts.status)
		return err
	}
	_, err = fmt.Fprintf(g.Stdout, "ADAPT %s is now %s\n", opts.slug, opts.status)
	return err
}
