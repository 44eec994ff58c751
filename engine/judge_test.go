package engine

import "testing"

// A verdict none of whose violations is judged here passes; one judged
// violation keeps it failed; a reused verdict is first brought back to its
// policy's result.
func TestSettleCountsOnlyJudgedViolations(t *testing.T) {
	v := Verdict{Severity: SeverityBlock, Outcome: Failed, Violations: []Violation{
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

// A policy may not set a violation's state: the engine does.
func TestPolicyCannotSetState(t *testing.T) {
	if _, err := toViolation(map[string]any{"msg": "m", "state": StateBaselined}); err == nil {
		t.Fatal("a violation with a state was accepted")
	}
	v, err := toViolation(map[string]any{"msg": "m", "key": "a.py:C", "quantity": int64(70), "sources": []any{"b.py"}})
	if err != nil || v.Key != "a.py:C" || v.Quantity != 70 || len(v.Sources) != 1 {
		t.Fatalf("toViolation = %+v, %v", v, err)
	}
}
