package cli

import (
	"context"
	"fmt"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app/taskflow"

	"github.com/spf13/cobra"
	"github.com/tausik/tausik/internal/render"
)

type taskFilesOptions struct {
	slug  string
	files []string
}

func newTaskFilesCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &taskFilesOptions{}
	return &cobra.Command{
		Use:   "files SLUG PATH...",
		Short: "Declare more files an active task changes (what verify certifies)",
		Args:  cmdbase.UsageArgs(cobra.MinimumNArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.slug, opts.files = args[0], args[1:]
			return runTaskFiles(cmd.Context(), g, opts)
		},
	}
}

func runTaskFiles(ctx context.Context, g *cmdbase.Globals, opts *taskFilesOptions) error {
	files, err := cmdbase.AbsPaths(opts.files)
	if err != nil {
		return err
	}
	e, err := g.OpenEngine(ctx, true)
	if err != nil {
		return err
	}
	defer e.Close()
	t, err := taskflow.AddFiles(ctx, e, opts.slug, files)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(g.Stdout, "task %s declares %d file(s): %s\n", t.Slug, len(t.Files), render.OrNone(t.Files))
	return err
}
