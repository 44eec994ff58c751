package engine

import (
	"testing"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
)

// A verdict none of whose violations is judged here passes; one judged
// violation keeps it failed; a reused verdict is first brought back to its
// policy's result.
func TestSettleCountsOnlyJudgedViolations(t *testing.T) {
	v := Verdict{Severity: gate.SeverityBlock, Outcome: Failed, Violations: []policy.Violation{
		{Msg: "a", State: StateBaselined}, {Msg: "b", State: StateElsewhere}}}
	v.settle()
	if v.Outcome != Passed || v.Blocks {
		t.Fatalf("all held elsewhere or by the baseline: %s blocks=%v, want PASSED not blocking", v.Outcome, v.Blocks)
	}
	v.unsettle()
	if v.Outcome != Failed || !v.Blocks || v.Violations[0].State != "" || v.Violations[1].State != "" {
		t.Fatalf("unsettled: %+v, want the policy's FAILED verdict without states", v)
	}
	v.Violations[1].State = StateBaselined
	v.settle()
	if v.Outcome != Failed || !v.Blocks || len(v.Judged()) != 1 {
		t.Fatalf("one judged violation: %s blocks=%v judged=%d, want FAILED blocking 1", v.Outcome, v.Blocks, len(v.Judged()))
	}
}
