package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tausik/tausik/engine/config"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/work"
	"github.com/tausik/tausik/store"
	"github.com/tausik/tausik/store/receipt"
)

// TriggerVerify, TriggerTaskStart and TriggerTaskDone are the triggers the
// workflow flows evaluate.
const (
	TriggerTaskStart = "task-start"
	TriggerVerify    = "verify"
	TriggerTaskDone  = "task-done"
)

// VerifyGates returns the enabled gates that listen to the verify trigger as
// the gate signature sees them (name, command, effective severity), sorted
// by name: the set `tausik verify` runs and a receipt certifies.
func (e *Engine) VerifyGates() []receipt.VerifyGate { return slices.Clone(e.verifyGates) }

// verifyGateSet computes VerifyGates once, in New: it depends only on the
// loaded gates and their effective configuration.
func (e *Engine) verifyGateSet() []receipt.VerifyGate {
	var out []receipt.VerifyGate
	for _, g := range e.gates {
		eff := e.eff[g.Name]
		if eff.Enabled && slices.Contains(eff.Triggers, TriggerVerify) {
			out = append(out, receipt.VerifyGate{Name: g.Name, Command: e.gateCommand(g, eff), Severity: eff.Severity})
		}
	}
	slices.SortFunc(out, func(a, b receipt.VerifyGate) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// gateCommand is what a command gate runs, as the gate signature covers it:
// its argv, then one "exclude=PATTERN" entry per path it leaves out, so a
// receipt from a weaker command (other flags, more files skipped) does not
// certify the configured one. A gate that runs no command has none.
func (e *Engine) gateCommand(g *gate.Gate, eff *config.Effective) []string {
	spec, ok := e.cmds.SpecFor(g, eff.Params)
	if !ok {
		return nil
	}
	out := slices.Clone(spec.Argv)
	for _, x := range spec.Exclude {
		out = append(out, "exclude="+x)
	}
	return out
}

// workContext is what the workflow runners need from the engine for req.
func (e *Engine) workContext(req Request) runners.WorkContext {
	wc := runners.WorkContext{VerifyGates: make([]string, 0, len(e.verifyGates)), GateSignature: e.gateSignature}
	for _, g := range e.verifyGates {
		wc.VerifyGates = append(wc.VerifyGates, g.Name)
	}
	if req.Proposed != nil {
		p := work.ProposedTask(*req.Proposed)
		wc.Proposed = &p
	}
	return wc
}

// taskDefaults fills what a request about an existing task implies: the
// git "since" point is the task's start, so history facts cover the whole
// task, unless the caller chose one. A task that cannot be read is left to
// the task runner to report.
func (e *Engine) taskDefaults(ctx context.Context, req Request) Request {
	if req.Task == "" || req.ChangedSince != "" || req.Proposed != nil || e.store == nil {
		return req
	}
	if t, err := e.store.GetTask(ctx, req.Task); err == nil {
		req.ChangedSince = t.StartedAt.UTC().Format(time.RFC3339Nano)
	}
	return req
}

// needStore returns the engine's store, or ErrStore when it was opened
// without one.
func (e *Engine) needStore() (*store.Store, error) {
	if e.store == nil {
		return nil, fmt.Errorf("%w: this engine was opened without a store", diag.ErrStore)
	}
	return e.store, nil
}

// storeErr wraps a store failure in the engine sentinel the front ends map
// to an exit code: a request the state refuses (a missing or duplicate
// task, a session already open) is ErrUsage, anything else ErrStore.
func storeErr(err error) error {
	if err == nil {
		return nil
	}
	for _, refusal := range []error{
		store.ErrNotFound, store.ErrAmbiguousID, store.ErrInvalidTask, store.ErrTaskExists, store.ErrTaskNotActive,
		store.ErrSessionOpen, store.ErrNoOpenSession, store.ErrInvalidFilter, store.ErrInvalidVerifyRun,
	} {
		if errors.Is(err, refusal) {
			return fmt.Errorf("%w: %w", diag.ErrUsage, err)
		}
	}
	if errors.Is(err, diag.ErrStore) || errors.Is(err, diag.ErrUsage) {
		return err
	}
	return fmt.Errorf("%w: %w", diag.ErrStore, err)
}

// StoreErr is storeErr for the application layer's workflows, which map
// store failures to the same sentinels.
func StoreErr(err error) error { return storeErr(err) }

// WithLentStore marks Deps.Store as lent by the caller, who closes it: the
// engine's Close leaves it open.
func WithLentStore() Option { return func(e *Engine) { e.sharedStore = true } }
