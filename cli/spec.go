package cli

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/artifacts"
)

func newSpecCmd(g *cmdbase.Globals) *cobra.Command {
	return cmdbase.NewGroupCmd("spec", "Write and read SPECs: requirements kept as files under renar/specs/",
		newSpecNewCmd(g), newSpecListCmd(g), newSpecShowCmd(g), newSpecStatusCmd(g))
}

// renarRepo is the project's RENAR artifacts, stamped by the wall clock.
func renarRepo(g *cmdbase.Globals) (artifacts.Repo, error) {
	root, err := g.ProjectRoot()
	if err != nil {
		return artifacts.Repo{}, err
	}
	return artifacts.Repo{Root: root, Now: time.Now}, nil
}
