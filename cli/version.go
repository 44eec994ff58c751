package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/buildinfo"
)

func newVersionCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print tausik's version, the commit and date it was built from, and the schemas it speaks",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprint(g.stdout, versionText(buildinfo.Read()))
			return err
		},
	}
}

// versionText is what `tausik version` prints for a build: a line per fact
// known, the unknown ones left out.
func versionText(b buildinfo.Info) string {
	var s strings.Builder
	fmt.Fprintf(&s, "tausik %s\n", b.Version)
	if b.Commit != "" {
		mod := ""
		if b.Modified {
			mod = " (with uncommitted changes)"
		}
		fmt.Fprintf(&s, "commit %s%s\n", b.Commit, mod)
	}
	if b.Date != "" {
		fmt.Fprintf(&s, "built from a commit of %s\n", b.Date)
	}
	fmt.Fprintf(&s, "facts schema %s\n", facts.Schema)
	return s.String()
}
