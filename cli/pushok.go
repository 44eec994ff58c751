package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/render"
)

type pushOKOptions struct {
	remote, branch, format string
	force                  bool
}

func newPushOKCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &pushOKOptions{}
	cmd := &cobra.Command{
		Use:   "push-ok [REMOTE [BRANCH]]",
		Short: "Let an agent push the current commit once (a person's command)",
		Long: "Issues a push ticket: git_push_gate then lets one agent `git push` of HEAD through while\n" +
			"HEAD is at the commit it is now at, to REMOTE when given, and to BRANCH (default: the branch\n" +
			"HEAD is on), for the gate's ttl_seconds (10 minutes by default). A forced update needs\n" +
			"--force (or BRANCH spelt +BRANCH). The push it allows uses it up; a new ticket retires\n" +
			"the earlier ones. The issue and the use are both in the decision log.\n" +
			"An agent's run is refused: a person lets a push through.\n" +
			"Exit codes: 0 issued, 1 refused, 2 usage (no commit), 3 config/store error.",
		Args: cmdbase.UsageArgs(cobra.MaximumNArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cmdbase.CheckFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			if len(args) > 0 {
				opts.remote = args[0]
			}
			if len(args) > 1 {
				b, plus := strings.CutPrefix(args[1], "+")
				opts.branch, opts.force = strings.TrimPrefix(b, "refs/heads/"), opts.force || plus
			}
			return runPushOK(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	cmd.Flags().BoolVar(&opts.force, "force", false, "allow a forced update of the branch (git push --force, +BRANCH)")
	return cmd
}

func runPushOK(ctx context.Context, g *cmdbase.Globals, opts *pushOKOptions) error {
	e, err := g.OpenEngine(ctx, true)
	if err != nil {
		return err
	}
	defer e.Close()
	if err := g.JudgeGuardChange(ctx, e); err != nil {
		return err
	}
	rep, err := app.IssuePushTicket(ctx, e, g.Requester(), opts.remote, opts.branch, opts.force)
	if err != nil {
		return err
	}
	return render.PushTicket(g.Stdout, opts.format, rep)
}
