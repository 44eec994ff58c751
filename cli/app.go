package cli

import (
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/tausik/tausik/internal/project"
	"github.com/tausik/tausik/internal/render"

	"github.com/tausik/tausik/engine"
)

// openEngine builds the engine for the project the globals point at, with
// the project's store (and so a decision log) when withStore is set. The
// caller closes it.
func (g *globals) openEngine(ctx context.Context, withStore bool) (*engine.Engine, error) {
	root, err := g.projectRoot()
	if err != nil {
		return nil, err
	}
	return project.Open(ctx, project.Setup{Root: root, Getenv: g.getenv, Requester: g.requester(), NoStore: !withStore})
}

// projectRoot is --root, which must be an existing directory, or else the
// root found above the working directory.
func (g *globals) projectRoot() (string, error) {
	if g.root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		return project.FindRoot(wd), nil
	}
	if info, err := os.Stat(g.root); err != nil || !info.IsDir() {
		return "", usageErr(fmt.Errorf("--root %s is not a directory", g.root))
	}
	return g.root, nil
}

// checkFormat refuses an output format the command does not have.
func checkFormat(format string, allowed ...string) error {
	if !slices.Contains(allowed, format) {
		return usageErr(fmt.Errorf("unknown --format %q (known: %v)", format, allowed))
	}
	return nil
}

// renderDecision prints a decision in format. Config warnings also go to
// stderr so a JSON consumer on stdout still sees them in a terminal.
func renderDecision(g *globals, e *engine.Engine, format string, d *engine.Decision) error {
	g.warn(d)
	return render.Decision(g.stdout, format, d, render.OptionsOf(e, g.getenv))
}

// warn prints a decision's config warnings to stderr.
func (g *globals) warn(d *engine.Decision) {
	for _, w := range d.Warnings {
		fmt.Fprintf(g.stderr, "warning: %s\n", w)
	}
}
