package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/guard"
	"github.com/tausik/tausik/engine/toolcall"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/store"
)

// JudgeToolCall evaluates the pre-write gates for c and returns the
// decision, logged with the call's parsed targets. A call with nothing to
// judge (see Judged) returns a nil decision and no error: it passes. A
// push the decision lets through spends the push ticket it passed on
// (usePushTicket); a ticket that cannot be spent is an error.
func (e *Engine) JudgeToolCall(ctx context.Context, c toolcall.Call) (*Decision, error) {
	if !c.Judged() {
		return nil, nil
	}
	if c.Event == "" {
		c.Event = toolcall.EventPreToolUse
	}
	d, err := e.Evaluate(ctx, Request{Trigger: TriggerPreWrite, Files: c.Writes, Tool: &c})
	if err != nil {
		return nil, err
	}
	if err := e.usePushTicket(ctx, d); err != nil {
		return nil, err
	}
	return d, nil
}

// CountToolCall records one tool call of an agent into the open session, the
// count session_capacity budgets against. With no open session it records
// nothing: a call outside a session is not billed to a later one.
func (e *Engine) CountToolCall(ctx context.Context, tool string) error {
	if e.store == nil {
		return fmt.Errorf("%w: no store", diag.ErrStore)
	}
	if _, err := e.store.RecordToolCall(ctx, tool); err != nil && !errors.Is(err, store.ErrNoOpenSession) {
		return fmt.Errorf("%w: %v", diag.ErrStore, err)
	}
	return nil
}

// GateAgentAuthority is the built-in gate that keeps an agent from changing
// the guard it runs under: its configuration, state, keys, hook wiring,
// task scopes.
const GateAgentAuthority = "agent_authority"

// TriggerPreWrite is the trigger of a tool call about to write.
const TriggerPreWrite = "pre-write"

// JudgeCommand judges a tausik command line (argv[0] is the program) that a
// requester asked the CLI to run, before it changes anything: the
// agent_authority gate refuses one that changes the guard when the
// requester is an agent. The decision is logged either way, so every change
// of the guard is on record with who asked.
func (e *Engine) JudgeCommand(ctx context.Context, argv []string, requester string) (*Decision, error) {
	cmd := facts.ToolCommand{Argv: slices.Clone(argv), Dynamic: make([]bool, len(argv))}
	tc := &toolcall.Call{Host: "cli", Tool: "tausik", Kind: toolcall.KindOther, Command: strings.Join(argv, " "), Commands: []facts.ToolCommand{cmd}}
	return e.Evaluate(ctx, Request{Trigger: TriggerPreWrite, Gates: []string{GateAgentAuthority}, Requester: requester, Tool: tc})
}

// protectedTargets lists the paths of req (its files and its tool call's
// targets) that hit the guard, at pre-write only (see guard.Guard.Targets).
func (e *Engine) protectedTargets(req Request) []facts.ProtectedTarget {
	if req.Trigger != TriggerPreWrite {
		return nil
	}
	paths := slices.Clone(req.Files)
	var call *guard.Call
	if req.Tool != nil {
		paths = append(paths, req.Tool.Writes...)
		call = &guard.Call{Commands: req.Tool.Commands, CWD: req.Tool.CWD, Command: req.Tool.Command, Unknown: req.Tool.Unknown}
	}
	return e.guard.Targets(paths, call)
}

// activeSlugs are the slugs of the active tasks, sorted; nil without a store
// or when it cannot be read (the task runner reports that to the gates).
func (e *Engine) activeSlugs(ctx context.Context) []string {
	if e.store == nil {
		return nil
	}
	ts, err := e.store.ActiveTasks(ctx)
	if err != nil {
		return nil
	}
	var out []string
	for _, t := range ts {
		out = append(out, t.Slug)
	}
	slices.Sort(out)
	return out
}

// CheckToolCall evaluates the post-write gates after c ran, while a task
// with a declared scope is active, and returns the decision, logged with
// the call. A call that writes nothing (a read, another tool), or one made
// with no scoped task active, returns a nil decision: nothing to judge.
func (e *Engine) CheckToolCall(ctx context.Context, c toolcall.Call) (*Decision, error) {
	if c.Kind != toolcall.KindWrite && c.Kind != toolcall.KindShell {
		return nil, nil
	}
	st, err := e.needStore()
	if err != nil {
		return nil, err
	}
	active, err := st.ActiveTasks(ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	scoped := false
	for _, t := range active {
		scoped = scoped || t.Scope != nil
	}
	if !scoped {
		return nil, nil
	}
	// What the call showed it would write was judged before it ran; now
	// the tree is, so the request carries the call for the record only.
	rec := c
	rec.Writes, rec.Unknown, rec.Texts = nil, nil, nil
	if rec.Event == "" {
		rec.Event = toolcall.EventPostToolUse
	}
	return e.Evaluate(ctx, Request{Trigger: gate.TriggerPostWrite, Tool: &rec})
}

// GateSecretScan is the built-in gate that finds credentials in what a tool
// call writes. Its detectors param is the one definition of what a secret
// looks like: the policy reads it to find secrets, and the engine reads it
// to mask them in the tool call a decision records.
const GateSecretScan = "secret_scan"

// recordTool is c as a decision records it, every secret the secret_scan
// detectors in force find masked (none without that gate).
func (e *Engine) recordTool(c *toolcall.Call) *toolcall.Record {
	var detectors map[string]any
	if g, ok := e.byName[GateSecretScan]; ok {
		params := g.DefaultParams()
		if eff := e.eff[GateSecretScan]; eff != nil {
			params = eff.Params
		}
		detectors, _ = params["detectors"].(map[string]any)
	}
	return toolcall.Redacted(c, detectors)
}
