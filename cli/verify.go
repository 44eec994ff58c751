package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/tausik/tausik/internal/app/taskflow"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/engine"
)

type verifyOptions struct {
	task   string
	files  []string
	format string
}

func newVerifyCmd(g *globals) *cobra.Command {
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
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			if cmd.Flags().Changed("files") && len(opts.files) == 0 {
				return usageErr(errors.New("--files: empty list (omit it to verify the declared files)"))
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

func runVerify(ctx context.Context, g *globals, opts *verifyOptions) error {
	req := taskflow.VerifyRequest{Task: opts.task, Requester: g.requester()}
	if opts.files != nil {
		var err error
		if req.Files, err = absPaths(opts.files); err != nil {
			return err
		}
	}
	e, err := g.openEngine(ctx, true)
	if err != nil {
		return err
	}
	defer e.Close()
	out, err := taskflow.Verify(ctx, e, req)
	if out == nil || out.Decision == nil {
		return err
	}
	if rerr := renderVerify(g, e, opts.format, out, err == nil); rerr != nil {
		return rerr
	}
	return verdictErr(err, out.Decision.Blocked)
}

func renderVerify(g *globals, e *engine.Engine, format string, out *taskflow.VerifyOutcome, recorded bool) error {
	r := out.Run
	if format == "json" {
		return writeJSON(g.stdout, struct {
			Recorded      bool             `json:"recorded"`
			RunID         int64            `json:"run_id"`
			Task          string           `json:"task"`
			Passed        bool             `json:"passed"`
			Files         []string         `json:"files"`
			Declared      bool             `json:"declared"`
			FilesHash     string           `json:"files_hash"`
			GateSignature string           `json:"gate_signature"`
			RanAt         string           `json:"ran_at"`
			Key           string           `json:"key_fingerprint"`
			Decision      *engine.Decision `json:"decision"`
		}{recorded, r.ID, r.Task, r.Passed, out.Files, out.Declared, r.FilesHash, r.GateSignature, stamp(r.RanAt), r.KeyFingerprint, out.Decision})
	}
	if err := renderDecision(g, e, "text", out.Decision); err != nil {
		return err
	}
	if !recorded {
		return nil
	}
	verdict := "passed"
	if !r.Passed {
		verdict = "FAILED"
	}
	fmt.Fprintf(g.stdout, "verify run %d for task %s: %s at %s over %d file(s)\n", r.ID, r.Task, verdict, stamp(r.RanAt), len(out.Files))
	fmt.Fprintf(g.stdout, "files hash %s\ngate signature %s (%d verify gate(s))\nreceipt signed by %s\n",
		r.FilesHash, r.GateSignature, len(out.Gates), r.KeyFingerprint)
	if !out.Declared {
		fmt.Fprintf(g.stdout, "note: these are not the files task %s declares; task done will not accept this run\n", r.Task)
	}
	return nil
}
