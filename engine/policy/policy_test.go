package policy

import "testing"

// A policy may not set a violation's state: the engine does.
func TestPolicyCannotSetState(t *testing.T) {
	if _, err := toViolation(map[string]any{"msg": "m", "state": "baselined"}); err == nil {
		t.Fatal("a violation with a state was accepted")
	}
	v, err := toViolation(map[string]any{"msg": "m", "key": "a.py:C", "quantity": int64(70), "sources": []any{"b.py"}})
	if err != nil || v.Key != "a.py:C" || v.Quantity != 70 || len(v.Sources) != 1 {
		t.Fatalf("toViolation = %+v, %v", v, err)
	}
}
