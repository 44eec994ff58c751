package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app/taskflow"

	"github.com/spf13/cobra"
)

type taskScopeOptions struct {
	slug     string
	patterns []string
}

func newTaskScopeCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &taskScopeOptions{}
	return &cobra.Command{
		Use:   "scope SLUG PATTERN...",
		Short: "Widen an active task's writable scope ('dir/' prefixes, globs, exact files)",
		Args:  cmdbase.UsageArgs(cobra.MinimumNArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.slug, opts.patterns = args[0], args[1:]
			return runTaskScope(cmd.Context(), g, opts)
		},
	}
}

func runTaskScope(ctx context.Context, g *cmdbase.Globals, opts *taskScopeOptions) error {
	e, err := g.OpenEngine(ctx, true)
	if err != nil {
		return err
	}
	defer e.Close()
	if err := g.JudgeGuardChange(ctx, e); err != nil {
		return err
	}
	t, err := taskflow.AddScope(ctx, e, opts.slug, opts.patterns)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(g.Stdout, "task %s may write: %s\n", t.Slug, strings.Join(t.Scope, " "))
	return err
}
