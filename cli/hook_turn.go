package cli

import (
	"context"
	"os"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/toolcall"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/hosts"
)

// turnShort describes each lifecycle event's command.
var turnShort = map[string]string{
	toolcall.EventStop:         "Judge the agent's stop: an active task whose task-done gates block makes the host continue with the reasons",
	toolcall.EventSessionStart: "Hand the model the active task, its scope and what would block now (byte-stable)",
	toolcall.EventPromptSubmit: "Hand the model the active task, its scope and what would block now, at each prompt (byte-stable)",
}

// addTurnEvents adds to hc the lifecycle events host h has.
func addTurnEvents(hc *cobra.Command, g *cmdbase.Globals, h *hosts.Host) {
	for _, ev := range hosts.TurnEvents(h) {
		bound := app.DefaultStopBound
		c := &cobra.Command{
			Use:   ev,
			Short: turnShort[ev],
			Args:  cmdbase.UsageArgs(cobra.NoArgs),
			RunE: func(cmd *cobra.Command, _ []string) error {
				return runTurnHook(cmd.Context(), g, h, ev, bound)
			},
		}
		if ev == toolcall.EventStop {
			c.Flags().IntVar(&bound, "stop-bound", app.DefaultStopBound, "refused stops in a row (per session and task) after which a stop passes, with a note in its decision")
		}
		hc.AddCommand(c)
	}
}

// runTurnHook answers one lifecycle event; the exit code is the host's
// protocol.
func runTurnHook(ctx context.Context, g *cmdbase.Globals, h *hosts.Host, ev string, bound int) error {
	wd, _ := os.Getwd()
	judge := func(ctx context.Context, e *engine.Engine, rec toolcall.Turn) (hosts.TurnAnswer, error) {
		if ev == toolcall.EventStop {
			v, err := app.JudgeStop(ctx, e, rec, bound)
			return hosts.TurnAnswer{Continue: v.Continue, Reason: v.Reason}, err
		}
		text, err := app.TurnContext(ctx, e, rec)
		return hosts.TurnAnswer{Context: text}, err
	}
	code := hosts.RunTurn(ctx, h, ev, hosts.Env{
		Stdin: g.Stdin, Stdout: g.Stdout, Stderr: g.Stderr, Getenv: g.Getenv, WD: wd,
		Open: func(ctx context.Context, at hosts.Where) (*engine.Engine, error) {
			return hookEngine(ctx, g, at, h.Name)
		},
	}, judge, hosts.Deadline)
	if code != 0 {
		return cmdbase.HostExit{Code: code}
	}
	return nil
}

// writeFindings begins, for host h's post-tool-use hook, the warn gates'
// findings on the files a write tool wrote (app.StartWriteFindings); they
// are evaluated within a quarter of the hook's deadline: slow warnings are
// dropped, never mistaken for a failed check.
func writeFindings(h *hosts.Host) func(context.Context, *engine.Engine, string, []string) func(context.Context) (string, error) {
	return func(ctx context.Context, e *engine.Engine, session string, files []string) func(context.Context) (string, error) {
		finish := app.StartWriteFindings(ctx, e, h.Name, session, files)
		if finish == nil {
			return nil
		}
		return func(ctx context.Context) (string, error) {
			ctx, cancel := context.WithTimeout(ctx, hosts.Deadline/4)
			defer cancel()
			return finish(ctx)
		}
	}
}
