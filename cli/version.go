package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/facts"
)

func newVersionCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print tausik's version and the schemas it speaks",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintf(g.stdout, "tausik %s\nfacts schema %s\n", buildVersion(), facts.Schema)
			return err
		},
	}
}
