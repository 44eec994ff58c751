package engine

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/tausik/tausik/engine/factplan"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/engine/toolcall"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/command"
	"github.com/tausik/tausik/store"
)

// This file is the engine's surface for its policy harness
// (internal/policytest): what fixture runs need from a loaded gate, and a way
// to gather and evaluate a fixture without the decision log.

// BuiltinTests returns the names of the Go test functions in tausik's own
// sources (Deps.BuiltinTests), which a built-in gate's excuse may name.
func (e *Engine) BuiltinTests() []string { return slices.Clone(e.builtinTests) }

// Python is the interpreter the pytest gate runs: $TAUSIK_PYTHON, else the
// config's "python" key, else python3.
func (e *Engine) Python() string {
	if p := command.PythonFromEnv(); p != "" {
		return p
	}
	if p := e.cmds.Python(); p != "" {
		return p
	}
	return command.Python()
}

// GatherFixture gathers the namespaces gate g reads for a fixture tree copied
// to dir: the fixture runners (Deps.FixtureRunners) rooted at dir, plus the
// command runners of g's built-in command namespaces with params' exclusions
// and an environment kept inside dir. A runner's failure becomes a namespace
// with an error status, as in any evaluation; the error is for runners that
// could not be built, or whose store seed failed.
func (e *Engine) GatherFixture(ctx context.Context, g *gate.Gate, params map[string]any, dir string, req facts.Request, seed FixtureSeed) (*facts.Document, error) {
	return e.gatherFixture(ctx, g, params, runners.NewScope(dir, req), seed)
}

// GatherFixtureCall is GatherFixture for a fixture that carries an agent
// tool call: either c (a host payload normalised against dir) or t (the
// tool namespace as given, its writes' texts the files' texts after the
// call). The request names the call's targets as a hook's would.
func (e *Engine) GatherFixtureCall(ctx context.Context, g *gate.Gate, params map[string]any, dir string, req facts.Request, seed FixtureSeed, c *toolcall.Call, t *facts.Tool) (*facts.Document, error) {
	scope := runners.NewScope(dir, req)
	sub := &Engine{root: dir}
	if c != nil {
		scope = sub.scope(Request{Trigger: req.Trigger, Files: c.Writes, Task: req.Task, Bypass: req.Bypass, Tool: c}, time.Time{})
		scope.Request.Requester, scope.Request.Time = req.Requester, req.Time
	}
	if t != nil {
		scope.Request.Explicit, scope.Request.Files = true, nonNil(t.Targets)
		scope.Request.UnknownWrites = t.UnknownWrites
		scope.Tool, scope.After = t, map[string]runners.AfterText{}
		for _, w := range t.Writes {
			scope.After[w.Path] = runners.AfterText{Text: w.Text, Err: w.Error}
		}
	}
	return e.gatherFixture(ctx, g, params, scope, seed)
}

func (e *Engine) gatherFixture(ctx context.Context, g *gate.Gate, params map[string]any, scope *runners.Scope, seed FixtureSeed) (*facts.Document, error) {
	dir := scope.Root
	reg, done, err := e.fixtureRunners(ctx, dir, seed)
	if err != nil {
		return nil, fmt.Errorf("fixture runners: %w", err)
	}
	defer done()
	cmds, err := e.cmds.FixtureRunners(g, params, dir)
	if err != nil {
		return nil, fmt.Errorf("fixture runners: %w", err)
	}
	sub := &Engine{root: dir, runners: reg.With(cmds...)}
	factplan.SetGlobs(scope, []*gate.Gate{g})
	factplan.SetOptions(scope, sub.runners, []*gate.Gate{g}, func(*gate.Gate) map[string]any { return params })
	doc, _ := sub.gather(ctx, scope, g.Facts)
	return doc, nil
}

// EvalGate evaluates g's policy with params against doc, at g's own
// severity, as a fixture run does: no config tiers, no decision log, no
// verdict cache. A policy that errors or panics comes out COULD_NOT_RUN
// with the error as a reason, and the error is returned too (errors.Is
// ErrShape for a result of the wrong shape). A document that cannot be read
// is an error with a zero Verdict.
func EvalGate(ctx context.Context, g *gate.Gate, params map[string]any, doc *facts.Document) (Verdict, error) {
	plain, err := doc.Generic()
	if err != nil {
		return Verdict{}, fmt.Errorf("facts: %w", err)
	}
	return evalGate(ctx, g, g.Severity, params, policy.NewInput(plain, nil), doc)
}

// FixtureSeed fills a tree fixture's in-memory store before its runners
// look: the tasks and verify runs a workflow fixture needs. The store runs on
// a clock the seed sets (setClock), so the times the store stamps itself (a
// task's start and close) are the fixture's, not the wall clock's. Each
// fixture run gets its own store and clock: a seed may run concurrently.
type FixtureSeed func(ctx context.Context, st *store.Store, setClock func(time.Time)) error
