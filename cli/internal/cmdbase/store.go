package cmdbase

import (
	"context"

	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/project"
)

// OpenStore opens the project's store alone, for commands that read or
// write workflow state without judging anything (task show, session…): they
// work even while the gate configuration is broken. The caller closes it.
func (g *Globals) OpenStore(ctx context.Context) (*app.Store, string, error) {
	root, err := g.ProjectRoot()
	if err != nil {
		return nil, "", err
	}
	st, err := project.OpenStore(ctx, root, g.Getenv)
	return st, root, err
}
