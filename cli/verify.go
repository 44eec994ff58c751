package cli

import (
	"context"
	"errors"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app/taskflow"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/internal/render"
)

type verifyOptions struct {
	task   string
	files  []string
	format string
}

func newVerifyCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &verifyOptions{}
	cmd := &cobra.Command{
		Use:   "verify --task SLUG [--files PATH]...",
		Short: "Run the verify gates over a task's files and record a signed receipt",
		Long: "Runs every enabled gate that listens to the verify trigger over the task's declared\n" +
			"files (or --files), records the run with a receipt signed by the project key\n" +
			"(`tausik key init`), and prints it. task done accepts the run only while it is fresh\n" +
			"and the files, the verify gates and the receipt still match.\n" +
			"Exit codes: 0 passed, 1 a verify gate blocks (the run is recorded as failed),\n" +
			"2 usage, 3 store or key error.",
		Args: cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			if cmd.Flags().Changed("files") && len(opts.files) == 0 {
				return cmdbase.UsageErr(errors.New("--files: empty list (omit it to verify the declared files)"))
			}
			return runVerify(cmd.Context(), g, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.task, "task", "", "the task to verify")
	f.StringSliceVar(&opts.files, "files", nil, "verify these files instead of the declared ones (repeatable or comma-separated)")
	f.StringVar(&opts.format, "format", "text", "output format: text or json")
	_ = cmd.MarkFlagRequired("task")
	return cmd
}

func runVerify(ctx context.Context, g *cmdbase.Globals, opts *verifyOptions) error {
	req := taskflow.VerifyRequest{Task: opts.task, Requester: g.Requester()}
	if opts.files != nil {
		var err error
		if req.Files, err = cmdbase.AbsPaths(opts.files); err != nil {
			return err
		}
	}
	e, err := g.OpenEngine(ctx, true)
	if err != nil {
		return err
	}
	defer e.Close()
	out, err := taskflow.Verify(ctx, e, req)
	if out == nil || out.Decision == nil {
		return err
	}
	if opts.format != "json" {
		g.Warn(out.Decision)
	}
	if rerr := render.Verify(g.Stdout, opts.format, out, err == nil); rerr != nil {
		return rerr
	}
	return cmdbase.VerdictErr(err, out.Decision.Blocked)
}
