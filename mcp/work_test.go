package mcp

import (
	"encoding/json"
	"github.com/tausik/tausik/internal/app"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
)

func structured(t *testing.T, v any, into any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, into); err != nil {
		t.Fatal(err)
	}
}

// TestWorkflowTools drives the task flow over MCP: start, a refused close
// (no verify), verify, a close that passes; then the log tools find it all.
func TestWorkflowTools(t *testing.T) {
	root := testProject(t, map[string]string{"notes/plan.txt": "step one\n"})
	if _, err := app.InitKey(root, false); err != nil {
		t.Fatal(err)
	}
	c := inProcess(t, root)

	res := call(t, c, "task_start", map[string]any{"slug": "plan", "goal": "write the plan", "scope": []any{"notes/"}, "files": []any{"notes/plan.txt"}})
	if res.IsError {
		t.Fatalf("task_start: %s", text(res))
	}
	var started struct {
		Task facts.Task `json:"task"`
	}
	structured(t, res.StructuredContent, &started)
	if started.Task.Slug != "plan" || started.Task.Status != "active" || started.Task.ScopePaths[0] != "notes/" {
		t.Errorf("started = %+v", started.Task)
	}
	if res := call(t, c, "task_start", map[string]any{"slug": "plan", "goal": "again"}); !res.IsError || !strings.Contains(text(res), "plan") {
		t.Errorf("a second start of the same slug: %v %s", res.IsError, text(res))
	}

	res = call(t, c, "task_done", map[string]any{"slug": "plan"})
	if !res.IsError || !strings.Contains(text(res), "verify_first") || !strings.Contains(text(res), "tausik verify --task plan") {
		t.Fatalf("task_done before verify must be refused with the remedy: %v %s", res.IsError, text(res))
	}

	res = call(t, c, "verify_run", map[string]any{"task": "plan"})
	var run struct {
		Passed, Declared, Signed bool
		Files                    []string
	}
	structured(t, res.StructuredContent, &run)
	if res.IsError || !run.Passed || !run.Declared || !run.Signed || run.Files[0] != "notes/plan.txt" {
		t.Fatalf("verify_run: %s", text(res))
	}

	res = call(t, c, "task_done", map[string]any{"slug": "plan"})
	if res.IsError {
		t.Fatalf("task_done after a fresh verify: %s", text(res))
	}
	if res := call(t, c, "task_done", map[string]any{"slug": "nope"}); !res.IsError {
		t.Errorf("closing an unknown task must be a refusal: %s", text(res))
	}

	res = call(t, c, "decision_log_query", map[string]any{"task": "plan", "limit": 10})
	var q struct {
		Decisions []logEntry `json:"decisions"`
	}
	structured(t, res.StructuredContent, &q)
	if len(q.Decisions) < 4 {
		t.Fatalf("log for task plan: %s", text(res))
	}
	// The newest decision of the flow itself; the close's task-state entry,
	// which records the task's new state in the log, follows it.
	last := q.Decisions[len(q.Decisions)-1]
	if last.Trigger == "task-state" && len(q.Decisions) > 1 {
		last = q.Decisions[len(q.Decisions)-2]
	}
	if last.Trigger != "task-done" || last.Blocked || last.Requester != "mcp:unit-test" {
		t.Errorf("newest decision = %+v", last)
	}
	res = call(t, c, "decision_show", map[string]any{"id": last.DecisionID[:10]})
	var shown struct {
		Seq      int64          `json:"seq"`
		Hash     string         `json:"hash"`
		Decision map[string]any `json:"decision"`
	}
	structured(t, res.StructuredContent, &shown)
	if res.IsError || shown.Decision["decision_id"] != last.DecisionID || len(shown.Hash) != 64 {
		t.Errorf("decision_show: %s", text(res))
	}
	if res := call(t, c, "decision_show", map[string]any{"id": "01ZZZZZZZZ"}); !res.IsError || !strings.Contains(text(res), "decision_log_query") {
		t.Errorf("unknown id: %s", text(res))
	}
	if res := call(t, c, "decision_log_query", map[string]any{"limit": 0}); !res.IsError || !strings.Contains(text(res), "between 1 and 200") {
		t.Errorf("limit 0: %s", text(res))
	}
	if res := call(t, c, "decision_log_query", map[string]any{"limit": 5, "since": "yesterday-ish"}); !res.IsError {
		t.Errorf("a malformed since must be refused: %s", text(res))
	}
}

func TestSessionStatusAndBudget(t *testing.T) {
	root := testProject(t, map[string]string{"a.txt": "a\n"})
	c := inProcess(t, root)
	res := call(t, c, "session_status", nil)
	var st struct {
		Open bool `json:"open"`
	}
	structured(t, res.StructuredContent, &st)
	if res.IsError || st.Open {
		t.Fatalf("fresh project: %s", text(res))
	}
	res = call(t, c, "task_start", map[string]any{"slug": "budgeted", "goal": "use calls", "budget": 20})
	if !res.IsError || !strings.Contains(text(res), "session_capacity") || !strings.Contains(text(res), "start a session") {
		t.Errorf("a budgeted start with no open session must be refused: %s", text(res))
	}
	if _, err := os.Stat(filepath.Join(root, ".tausik", "tausik.db")); err != nil {
		t.Fatal(err)
	}
}
