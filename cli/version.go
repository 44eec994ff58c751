package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/internal/buildinfo"
	"github.com/tausik/tausik/internal/render"
)

func newVersionCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print tausik's version, the commit and date it was built from, and the schemas it speaks",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprint(g.stdout, render.Version(buildinfo.Read()))
			return err
		},
	}
}
