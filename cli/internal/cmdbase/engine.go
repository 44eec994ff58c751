package cmdbase

import (
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/tausik/tausik/internal/project"
	"github.com/tausik/tausik/internal/render"

	"github.com/tausik/tausik/engine"
)

// OpenEngine builds the engine for the project the globals point at, with
// the project's store (and so a decision log) when withStore is set. The
// caller closes it.
func (g *Globals) OpenEngine(ctx context.Context, withStore bool) (*engine.Engine, error) {
	root, err := g.ProjectRoot()
	if err != nil {
		return nil, err
	}
	return project.Open(ctx, project.Setup{Root: root, Getenv: g.Getenv, Requester: g.Requester(), NoStore: !withStore})
}

// ProjectRoot is --root, which must be an existing directory, or else the
// root found above the working directory.
func (g *Globals) ProjectRoot() (string, error) {
	if g.Root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		return project.FindRoot(wd), nil
	}
	if info, err := os.Stat(g.Root); err != nil || !info.IsDir() {
		return "", UsageErr(fmt.Errorf("--root %s is not a directory", g.Root))
	}
	return g.Root, nil
}

// CheckFormat refuses an output format the command does not have.
func CheckFormat(format string, allowed ...string) error {
	if !slices.Contains(allowed, format) {
		return UsageErr(fmt.Errorf("unknown --format %q (known: %v)", format, allowed))
	}
	return nil
}

// RenderDecision prints a decision in format. Config warnings also go to
// stderr so a JSON consumer on stdout still sees them in a terminal.
func RenderDecision(g *Globals, e *engine.Engine, format string, d *engine.Decision) error {
	g.Warn(d)
	return render.Decision(g.Stdout, format, d, render.OptionsOf(e, g.Getenv))
}

// Warn prints a decision's config warnings to stderr.
func (g *Globals) Warn(d *engine.Decision) {
	for _, w := range d.Warnings {
		fmt.Fprintf(g.Stderr, "warning: %s\n", w)
	}
}
