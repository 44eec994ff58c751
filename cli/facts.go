package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/render"
)

type factsOptions struct {
	namespaces []string
	files      []string
	trigger    string
	task       string
}

func newFactsCmd(g *globals) *cobra.Command {
	opts := &factsOptions{}
	cmd := &cobra.Command{
		Use:   "facts [--namespace N]... [--files PATH]...",
		Short: "Print the facts document policies are evaluated against, as JSON",
		Args:  usageArgs(cobra.NoArgs),
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

func runFacts(ctx context.Context, g *globals, opts *factsOptions) error {
	files, err := absPaths(opts.files)
	if err != nil {
		return err
	}
	e, err := g.openEngine(ctx, true)
	if err != nil {
		return err
	}
	defer e.Close()
	doc, err := e.Facts(ctx, engine.Request{Trigger: opts.trigger, Files: files, Task: opts.task, Requester: g.requester()}, opts.namespaces)
	if err != nil {
		return err
	}
	plain, err := doc.Generic()
	if err != nil {
		return err
	}
	if len(opts.namespaces) > 0 {
		keep := map[string]any{"schema": facts.Schema}
		for _, n := range opts.namespaces {
			keep[n] = plain[n]
		}
		plain = keep
	}
	return render.JSON(g.stdout, plain)
}
