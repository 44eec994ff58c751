package engine

import (
	"context"

	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/runners"
)

// Violation states: what a violation the policy found means for the request
// being judged. A violation with no state is judged here and counts.
const (
	// StateBaselined: the baseline holds the violation and it did not grow.
	StateBaselined = "baselined"
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
