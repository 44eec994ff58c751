package cli

import (
	"context"
	"fmt"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/app"
)

// requester is who asked for this run: "agent:<host>" when an agent
// host's marker is in the environment, else "cli" (a person).
func (g *globals) requester() string { return app.Requester(g.getenv) }

// agent reports whether this run was asked by an agent.
func (g *globals) agent() bool { return g.requester() != "cli" }

// judgeGuardChange asks the engine whether this run's command line, which
// changes the guard (a scope, keys, hook wiring), may run for its requester,
// and logs the decision. A refusal is rendered and returned as errBlocked.
func (g *globals) judgeGuardChange(ctx context.Context, e *engine.Engine) error {
	argv := append([]string{"tausik"}, g.args...)
	d, err := e.JudgeCommand(ctx, argv, g.requester())
	if err != nil {
		return err
	}
	if !d.Blocked {
		return nil
	}
	if err := renderDecision(g, e, "text", d); err != nil {
		return err
	}
	return errBlocked
}

// refuseAgent is judgeGuardChange for a command that needs no engine of its
// own: a person's run goes ahead unjudged; an agent's is judged (and so
// logged) against the project's engine, and refused.
func (g *globals) refuseAgent(ctx context.Context) error {
	if !g.agent() {
		return nil
	}
	e, err := g.openEngine(ctx, true)
	if err != nil {
		return fmt.Errorf("an agent's run that changes the guard cannot be judged: %w", err)
	}
	defer e.Close()
	return g.judgeGuardChange(ctx, e)
}
