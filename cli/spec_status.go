package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/artifacts"
)

type specStatusOptions struct {
	slug, status string
}

func newSpecStatusCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &specStatusOptions{}
	return &cobra.Command{
		Use:   "status SLUG " + strings.Join(artifacts.SpecStatuses, "|"),
		Short: "Move a SPEC to a status; updated_at moves with it",
		Long: "A changed status bumps updated_at, so tasks verified before it read as stale\n" +
			"(renar_drift_provenance). Exit codes: 0 done, 2 a bad status or no such SPEC.",
		Args: cmdbase.UsageArgs(cobra.ExactArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.slug, opts.status = args[0], args[1]
			return runSpecStatus(g, opts)
		},
	}
}

func runSpecStatus(g *cmdbase.Globals, opts *specStatusOptions) error {
	repo, err := renarRepo(g)
	if err != nil {
		return err
	}
	changed, err := repo.SetSpecStatus(opts.slug, opts.status)
	if err != nil {
		return err
	}
	if !changed {
		_, err = fmt.Fprintf(g.Stdout, "SPEC %s is already %s\n", opts.slug, opts.status)
		return err
	}
	_, err = fmt.Fprintf(g.Stdout, "SPEC %s is now %s\n", opts.slug, opts.status)
	return err
}
