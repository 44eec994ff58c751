package policycmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/engine"
)

type evalOptions struct {
	trigger      string
	files        []string // --files and the positional paths
	changedSince string
	gates        []string
	task         string
	format       string
	// writes are extra renderings of the same decision, each to a file
	// ("sarif=out.sarif"): one evaluation, every format CI wants.
	writes []string
	// checkpoint is "" (none), "-" (stderr) or a file to write the signed
	// checkpoint to after the decision is logged.
	checkpoint string
}

func newPolicyEvalCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &evalOptions{}
	cmd := &cobra.Command{
		Use:   "eval --trigger TRIGGER [--changed-since REF | [--files PATH]... [PATH...]] [--gate NAME]...",
		Short: "Evaluate the gates for a trigger and exit 1 if one blocks",
		Long: "Evaluates every enabled gate that listens to the trigger (or exactly the gates\n" +
			"named with --gate) over the given files (--files or positional paths, as pre-commit\n" +
			"passes them), the files changed since a git ref's merge base (--changed-since:\n" +
			"committed, staged, unstaged and untracked; deleted files judged as absent), or the\n" +
			"whole project when none are given.\n" +
			"Exit codes: 0 passed (warnings allowed), 1 blocked, 2 usage, 3 policy/config/store error.",
		Args: cmdbase.UsageArgs(cobra.ArbitraryArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cmdbase.CheckFormat(opts.format, render.Formats...); err != nil {
				return err
			}
			if err := checkWrites(opts.writes); err != nil {
				return err
			}
			if cmd.Flags().Changed("files") && len(opts.files) == 0 {
				return cmdbase.UsageErr(errors.New("--files: empty list (omit --files to judge the whole project)"))
			}
			opts.files = append(opts.files, args...)
			if cmd.Flags().Changed("changed-since") {
				if opts.changedSince == "" {
					return cmdbase.UsageErr(errors.New("--changed-since: empty ref"))
				}
				if len(opts.files) > 0 {
					return cmdbase.UsageErr(errors.New("--changed-since judges the changed files: give it or file paths, not both"))
				}
			}
			return runPolicyEval(cmd.Context(), g, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.trigger, "trigger", "", "the moment being judged: task-start, pre-write, post-write, commit, verify, task-done, review")
	f.StringSliceVar(&opts.files, "files", nil, "files in scope, each existing (repeatable or comma-separated; default: the whole project)")
	f.StringVar(&opts.changedSince, "changed-since", "", "judge the files changed since this git ref's merge base with HEAD (or a time: RFC 3339, @unix, a duration ago)")
	f.StringArrayVar(&opts.gates, "gate", nil, "evaluate only this gate, enabled or not (repeatable)")
	f.StringVar(&opts.task, "task", "", "the task the evaluation is for")
	f.StringVar(&opts.format, "format", "text", "output format: text, json, sarif, junit, github or markdown (a CI job summary)")
	f.StringArrayVar(&opts.writes, "write", nil, "also write the decision as FORMAT to FILE (FORMAT=FILE, repeatable), e.g. sarif=tausik.sarif markdown=summary.md")
	f.StringVar(&opts.checkpoint, "checkpoint", "", "after the decision, sign a checkpoint of the log to stderr (or =FILE), an anchor for CI logs")
	f.Lookup("checkpoint").NoOptDefVal = "-"
	_ = cmd.MarkFlagRequired("trigger")
	return cmd
}

func runPolicyEval(ctx context.Context, g *cmdbase.Globals, opts *evalOptions) error {
	files, err := cmdbase.AbsPaths(opts.files)
	if err != nil {
		return err
	}
	for i, f := range files {
		// A file named and not there was a typo, a name split at its
		// comma or a deletion: judging it absent and passing would read
		// as "the file is fine". Only pre-write names files a write is
		// about to create.
		if _, err := os.Lstat(f); errors.Is(err, fs.ErrNotExist) && opts.trigger != engine.TriggerPreWrite {
			return cmdbase.UsageErr(fmt.Errorf("%s: no such file (--files splits on commas: pass a name with a comma as a positional path; --changed-since judges deleted files)", opts.files[i]))
		}
	}
	e, err := g.OpenEngine(ctx, true)
	if err != nil {
		return err
	}
	defer e.Close()
	for _, f := range files {
		if _, ok := engine.Relative(e.Root(), f); !ok {
			// Judging nothing and passing would read as "the file is fine".
			return cmdbase.UsageErr(fmt.Errorf("%s is outside the project %s: policy eval judges the project's files only", f, e.Root()))
		}
	}
	dec, err := e.Evaluate(ctx, engine.Request{
		Trigger: opts.trigger, Files: files, Gates: opts.gates, Task: opts.task, Requester: g.Requester(),
		ChangedSince: opts.changedSince, ChangedFiles: opts.changedSince != "",
	})
	if dec == nil {
		return err
	}
	if rerr := cmdbase.RenderDecision(g, e, opts.format, dec); rerr != nil {
		return rerr
	}
	if werr := writeRenderings(g, e, opts.writes, dec); werr != nil {
		return werr
	}
	verdict := cmdbase.VerdictErr(err, dec.Blocked)
	if opts.checkpoint != "" {
		if cerr := writeEvalCheckpoint(ctx, g, e, opts.checkpoint); cerr != nil && verdict == nil {
			// A checkpoint asked for and not made fails the run, but never
			// hides a block: the blocked exit code does not depend on flags.
			return cerr
		} else if cerr != nil {
			fmt.Fprintf(g.Stderr, "tausik: checkpoint: %v\n", cerr)
		}
	}
	return verdict
}

// writeEvalCheckpoint signs the log's tree head, which now includes the
// decision just made, to stderr (so stdout stays the decision in any
// format) or to a file.
func writeEvalCheckpoint(ctx context.Context, g *cmdbase.Globals, e *engine.Engine, dest string) error {
	msg, err := app.SignLogCheckpoint(ctx, e, g.Getenv)
	if err != nil {
		return err
	}
	if dest == "-" {
		_, err = g.Stderr.Write(msg)
		return err
	}
	return cmdbase.WriteOut(g, dest, msg)
}
