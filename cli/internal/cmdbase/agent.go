package cmdbase

import (
	"context"
	"fmt"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/app"
)

// Requester is who asked for this run: "agent:<host>" when an agent
// host's marker is in the environment, else "cli" (a person).
func (g *Globals) Requester() string { return app.Requester(g.Getenv) }

// Agent reports whether this run was asked by an agent.
func (g *Globals) Agent() bool { return g.Requester() != "cli" }

// JudgeGuardChange asks the engine whether this run's command line, which
// changes the guard (a scope, keys, hook wiring), may run for its requester,
// and logs the decision. A refusal is rendered and returned as ErrBlocked.
func (g *Globals) JudgeGuardChange(ctx context.Context, e *engine.Engine) error {
	argv := append([]string{"tausik"}, g.Args...)
	d, err := e.JudgeCommand(ctx, argv, g.Requester())
	if err != nil {
		return err
	}
	if !d.Blocked {
		return nil
	}
	if err := RenderDecision(g, e, "text", d); err != nil {
		return err
	}
	return ErrBlocked
}

// RefuseAgent is JudgeGuardChange for a command that needs no engine of its
// own: a person's run goes ahead unjudged; an agent's is judged (and so
// logged) against the project's engine, and refused.
func (g *Globals) RefuseAgent(ctx context.Context) error {
	if !g.Agent() {
		return nil
	}
	e, err := g.OpenEngine(ctx, true)
	if err != nil {
		return fmt.Errorf("an agent's run that changes the guard cannot be judged: %w", err)
	}
	defer e.Close()
	return g.JudgeGuardChange(ctx, e)
}
