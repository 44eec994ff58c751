package cli

import (
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/tausik/tausik/engine"
)

// openEngine builds the engine for the project the globals point at.
func (g *globals) openEngine(ctx context.Context) (*engine.Engine, error) {
	root := g.root
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		root = engine.FindRoot(wd)
	} else if info, err := os.Stat(root); err != nil || !info.IsDir() {
		return nil, usageErr(fmt.Errorf("--root %s is not a directory", root))
	}
	return engine.Open(ctx, engine.Setup{Root: root, Getenv: g.getenv})
}

// checkFormat refuses an output format the command does not have.
func checkFormat(format string, allowed ...string) error {
	if !slices.Contains(allowed, format) {
		return usageErr(fmt.Errorf("unknown --format %q (known: %v)", format, allowed))
	}
	return nil
}
