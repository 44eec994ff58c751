package hosts

import (
	"strings"
	"testing"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/engine/toolcall"
)

// A refused tool call names only the violations judged here: one
// elsewhere or held by the baseline is not a reason the agent must act on.
func TestReasonNamesOnlyJudgedViolations(t *testing.T) {
	d := &engine.Decision{ID: "D", Gates: []engine.Verdict{{Name: "class_surface", Blocks: true, Violations: []policy.Violation{
		{Msg: "sub.py:3: class Sub over", File: "sub.py"}, {Msg: "old.py:1: class God over", File: "old.py", State: engine.StateElsewhere},
		{Msg: "held.py:1: class Held over", File: "held.py", State: engine.StateBaselined}}}}}
	got := reason(toolcall.Call{Tool: "Write"}, d)
	if !strings.Contains(got, "class Sub over") || strings.Contains(got, "God") || strings.Contains(got, "Held") {
		t.Fatalf("reason = %q, want Sub only", got)
	}
}
