package mcp

import (
	"strings"
	"testing"
)

// TestTaskStartOnlyNarrows: an MCP client is an agent, so while a task
// scoped to src/ is active, a task_start declaring "**" is refused by
// agent_authority (and nothing is created), and one inside src/ starts.
func TestTaskStartOnlyNarrows(t *testing.T) {
	root := testProject(t, map[string]string{"src/a/x.py": "x = 1\n"})
	c := inProcess(t, root)
	if res := call(t, c, "task_start", map[string]any{"slug": "feat", "goal": "g", "scope": []any{"src/"}}); res.IsError {
		t.Fatalf("first start: %s", text(res))
	}
	res := call(t, c, "task_start", map[string]any{"slug": "wide", "goal": "g", "scope": []any{"**"}})
	if !res.IsError || !strings.Contains(text(res), "agent_authority") || !strings.Contains(text(res), "a person must make this change") {
		t.Fatalf("a wider start must be refused by agent_authority: %v %s", res.IsError, text(res))
	}
	if strings.Contains(text(res), "tausik task") {
		t.Errorf("the refusal names a command: %s", text(res))
	}
	if res := call(t, c, "task_start", map[string]any{"slug": "wide", "goal": "g", "scope": []any{"src/a/"}}); res.IsError {
		t.Fatalf("a narrower start (the refused slug left nothing behind): %s", text(res))
	}
}
