package cli

import (
	"context"
	"errors"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app/taskflow"

	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"

	"github.com/spf13/cobra"
)

type taskStartOptions struct {
	slug       string
	goal       string
	scope      []string
	scopeSet   bool
	tier       string
	complexity string
	budget     int
	budgetSet  bool
	delegated  bool
	specs      []string
	adapts     []string
	files      []string
	format     string
}

func newTaskStartCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &taskStartOptions{}
	cmd := &cobra.Command{
		Use:   "start SLUG --goal TEXT [--scope PATTERN]... [--files PATH]... [--budget N]",
		Short: "Start a task if the task-start gates allow it",
		Long: "Judges the task-start gates (session_capacity…) over the proposed task and creates\n" +
			"it only if none blocks: a refused start leaves no task behind. --scope '' declares an\n" +
			"empty scope (the task may write nothing); no --scope declares none.\n" +
			"Exit codes: 0 started, 1 blocked, 2 usage (bad or existing slug), 3 store error.",
		Args: cmdbase.UsageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			opts.slug = args[0]
			opts.scopeSet = cmd.Flags().Changed("scope")
			opts.budgetSet = cmd.Flags().Changed("budget")
			if cmd.Flags().Changed("files") && len(opts.files) == 0 {
				return cmdbase.UsageErr(errors.New("--files: empty list"))
			}
			return runTaskStart(cmd.Context(), g, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.goal, "goal", "", "what the task is for")
	f.StringArrayVar(&opts.scope, "scope", nil, "a path pattern the task may write (repeatable)")
	f.StringVar(&opts.tier, "tier", string(taskflow.DefaultTier), "lightweight, standard, substantial or deep")
	f.StringVar(&opts.complexity, "complexity", string(taskflow.DefaultComplexity), "simple, medium or complex")
	f.IntVar(&opts.budget, "budget", 0, "tool calls the task may spend (needs an open session)")
	f.BoolVar(&opts.delegated, "delegated", false, "the task is done by a delegated worker")
	f.StringArrayVar(&opts.specs, "spec", nil, "a linked SPEC slug (repeatable)")
	f.StringArrayVar(&opts.adapts, "adapt", nil, "a linked ADAPT slug (repeatable)")
	f.StringSliceVar(&opts.files, "files", nil, "a file the task changes, which verify certifies (repeatable or comma-separated)")
	f.StringVar(&opts.format, "format", "text", "output format: text or json")
	_ = cmd.MarkFlagRequired("goal")
	return cmd
}

func runTaskStart(ctx context.Context, g *cmdbase.Globals, opts *taskStartOptions) error {
	files, err := cmdbase.AbsPaths(opts.files)
	if err != nil {
		return err
	}
	e, err := g.OpenEngine(ctx, true)
	if err != nil {
		return err
	}
	defer e.Close()
	t := app.Task{Slug: opts.slug, Goal: opts.goal, Tier: app.Tier(opts.tier), Complexity: app.Complexity(opts.complexity),
		Delegated: opts.delegated, Specs: opts.specs, Adapts: opts.adapts, Files: files}
	if opts.scopeSet {
		t.Scope = []string{}
		for _, s := range opts.scope {
			if s != "" {
				t.Scope = append(t.Scope, s)
			}
		}
	}
	if opts.budgetSet {
		t.CallBudget = &opts.budget
	}
	out, err := taskflow.Start(ctx, e, taskflow.StartRequest{Task: t, Requester: g.Requester()})
	if out == nil || out.Decision == nil {
		return err
	}
	if opts.format != "json" {
		g.Warn(out.Decision)
	}
	if rerr := render.TaskOutcome(g.Stdout, opts.format, out, "started", "not started"); rerr != nil {
		return rerr
	}
	return cmdbase.VerdictErr(err, out.Blocked)
}
