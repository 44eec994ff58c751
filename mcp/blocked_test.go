package mcp

import (
	"strings"
	"testing"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/policy"
)

// A refused flow names only the violations judged here: one elsewhere or
// held by the baseline is in the decision, not in the reason for refusing.
func TestBlockedMessageNamesOnlyJudgedViolations(t *testing.T) {
	d := &engine.Decision{ID: "D", Gates: []engine.Verdict{{Name: "class_surface", Blocks: true, Violations: []policy.Violation{
		{Msg: "sub.py:3: class Sub over"}, {Msg: "old.py:1: class God over", State: engine.StateElsewhere},
		{Msg: "held.py:1: class Held over", State: engine.StateBaselined}}}}}
	got := blockedMessage("task not closed", d)
	if !strings.Contains(got, "class Sub over") || strings.Contains(got, "God") || strings.Contains(got, "Held") {
		t.Fatalf("blockedMessage = %q, want Sub only", got)
	}
}
