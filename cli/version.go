package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/buildinfo"
	"github.com/tausik/tausik/internal/render"
)

func newVersionCmd(g *cmdbase.Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print tausik's version, the commit and date it was built from, and the schemas it speaks",
		Args:  cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprint(g.Stdout, render.Version(buildinfo.Read()))
			return err
		},
	}
}
