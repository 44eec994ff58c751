package engine

import (
	"context"
	"slices"

	"github.com/tausik/tausik/engine/baseline"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/runners"
)

// Violation states: what a violation the policy found means for the request
// being judged. A violation with no state is judged here and counts.
const (
	// StateBaselined: the baseline holds the violation and it did not grow.
	StateBaselined = baseline.State
	// StateElsewhere: the request is about a change, and the violation is
	// not attributable to it (elsewhere, not judged here).
	StateElsewhere = "elsewhere"
)

// judge settles every verdict of dec against what req is about: violations
// the change did not cause (attribute) and violations the baseline holds
// (applyBaseline) are kept with their state but do not block. A verdict
// reused from an earlier decision carries that decision's states, so each
// verdict is first brought back to what its policy found.
func (e *Engine) judge(ctx context.Context, req Request, scope *runners.Scope, dec *Decision) error {
	for i := range dec.Gates {
		dec.Gates[i].unsettle()
	}
	e.attribute(req, scope, dec)
	if err := e.applyBaseline(ctx, dec); err != nil {
		return err
	}
	dec.Blocked = false
	for i := range dec.Gates {
		dec.Gates[i].settle()
		dec.Blocked = dec.Blocked || dec.Gates[i].Blocks
	}
	return nil
}

// unsettle brings v back to its policy's result: a verdict keeps violations
// only when the policy found some (verdictOf), so one that has any failed.
func (v *Verdict) unsettle() {
	if len(v.Violations) == 0 {
		return
	}
	v.Outcome = Failed
	for i := range v.Violations {
		v.Violations[i].State = ""
	}
	v.Blocks = blocks(v.Severity, v.Outcome)
}

// settle passes a failed verdict none of whose violations is judged here,
// and sets whether it blocks (a passed one asks nobody).
func (v *Verdict) settle() {
	if v.Outcome == Failed && len(v.Judged()) == 0 {
		v.Outcome = Passed
	}
	v.Blocks = blocks(v.Severity, v.Outcome)
	v.Ask = v.Ask && v.Blocks
}

// Judged returns the violations of v that are judged here (no state).
func (v *Verdict) Judged() []policy.Violation {
	var out []policy.Violation
	for _, x := range v.Violations {
		if x.State == "" {
			out = append(out, x)
		}
	}
	return out
}

// applyBaseline marks StateBaselined the violations of dec the project's
// baseline holds, notes on the ones that grew how much, and reports the
// entries that shrank or vanished (see baseline.Hold). A baseline file that
// cannot be trusted is an ErrConfig error naming file:line.
func (e *Engine) applyBaseline(_ context.Context, dec *Decision) error {
	bl, err := baseline.Load(e.root)
	if err != nil || bl == nil {
		return err
	}
	stale := holdBaseline(bl, dec, func(gate string) string {
		if eff, ok := e.eff[gate]; ok {
			if s, ok := eff.Params["stale_baseline"].(string); ok {
				return s
			}
		}
		return "warn"
	})
	dec.Warnings = append(dec.Warnings, stale...)
	return nil
}

// holdBaseline applies bl to dec's verdicts (see baseline.Hold) and returns
// the warnings on stale entries; staleMode gives a gate's stale_baseline.
func holdBaseline(bl *baseline.File, dec *Decision, staleMode func(string) string) []string {
	vs := make([]*baseline.Verdict, len(dec.Gates))
	for i, v := range dec.Gates {
		vs[i] = &baseline.Verdict{Gate: v.Name, Ran: v.Outcome == Passed || v.Outcome == Failed, Violations: v.Violations}
	}
	warnings := baseline.Hold(bl, vs, dec.Request.Files, dec.Request.Explicit, staleMode)
	for i, v := range vs {
		dec.Gates[i].Violations = v.Violations
		if v.Failed {
			dec.Gates[i].Outcome = Failed
		}
	}
	return warnings
}

// SettleWithBaseline judges verdict v of a gate evaluated on its own (a
// fixture's) against baseline bl as an evaluation would: the request's
// files and explicit flag say which entries could have shrunk, params give
// stale_baseline. It returns the warnings on stale entries.
func SettleWithBaseline(bl *baseline.File, v *Verdict, files []string, explicit bool, params map[string]any) []string {
	v.unsettle()
	dec := &Decision{Gates: []Verdict{*v}, Request: RequestRecord{Files: files, Explicit: explicit}}
	warnings := holdBaseline(bl, dec, func(string) string {
		if s, ok := params["stale_baseline"].(string); ok {
			return s
		}
		return "warn"
	})
	*v = dec.Gates[0]
	v.settle()
	return warnings
}

// attribute marks StateElsewhere the violations of dec that the change req
// is about did not cause (docs/new-code.md). A request is about a change
// when it names its files: explicit paths, --changed-since, a task's
// declared files, a tool call's targets (scope.Request.Explicit); its
// changed files are then scope.Request.Files, resolved against the root,
// deleted files and both sides of a rename included where the request
// listed them. A whole-tree request judges everything.
func (e *Engine) attribute(_ Request, scope *runners.Scope, dec *Decision) {
	if !scope.Request.Explicit {
		return
	}
	changed := scope.Request.Files // sorted, without duplicates (scope)
	touched := func(p string) bool {
		_, ok := slices.BinarySearch(changed, p)
		return ok
	}
	for i := range dec.Gates {
		v := &dec.Gates[i]
		g, ok := e.byName[v.Name]
		if !ok || g.Attribution != gate.AttributionFile {
			continue
		}
		for j := range v.Violations {
			x := &v.Violations[j]
			if x.File == "" || touched(x.File) || slices.ContainsFunc(x.Sources, touched) {
				continue
			}
			x.State = StateElsewhere
		}
	}
}
