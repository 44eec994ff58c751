package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"
)

type factsOptions struct {
	namespaces []string
	files      []string
	trigger    string
	task       string
}

func newFactsCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &factsOptions{}
	cmd := &cobra.Command{
		Use:   "facts [--namespace N]... [--files PATH]...",
		Short: "Print the facts document policies are evaluated against, as JSON",
		Args:  cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runFacts(cmd.Context(), g, opts)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&opts.namespaces, "namespace", nil, "print only this namespace (repeatable; default: all but the command gates', which run tools)")
	f.StringSliceVar(&opts.files, "files", nil, "files in scope (default: the whole project)")
	f.StringVar(&opts.trigger, "trigger", "commit", "trigger recorded in the request namespace")
	f.StringVar(&opts.task, "task", "", "task recorded in the request namespace")
	return cmd
}

func runFacts(ctx context.Context, g *cmdbase.Globals, opts *factsOptions) error {
	files, err := cmdbase.AbsPaths(opts.files)
	if err != nil {
		return err
	}
	e, err := g.OpenEngine(ctx, true)
	if err != nil {
		return err
	}
	defer e.Close()
	plain, err := app.Facts(ctx, e, engine.Request{Trigger: opts.trigger, Files: files, Task: opts.task, Requester: g.Requester()}, opts.namespaces)
	if err != nil {
		return err
	}
	return render.JSON(g.Stdout, plain)
}
