package mcp

import (
	"strings"
	"testing"
)

// TestTaskStartShowsRenarAdvisory: over MCP, a deep task with no reasoning
// artifact starts, and the result carries the renar_qg0_advisory finding.
func TestTaskStartShowsRenarAdvisory(t *testing.T) {
	root := testProject(t, map[string]string{"renar/specs/login.md": "---\nartifact: spec\nslug: login\ntype: SEC\nstatus: active\nversion: 1\ntitle: t\n---\n"})
	c := inProcess(t, root)
	res := call(t, c, "task_start", map[string]any{"slug": "big", "goal": "rework auth", "tier": "deep"})
	if res.IsError {
		t.Fatalf("task_start: %s", text(res))
	}
	var out struct {
		Task struct {
			Status string `json:"status"`
		} `json:"task"`
		Decision struct {
			Gates []struct {
				Name, Outcome string
				Violations    []struct{ Msg, Detector, Kind, Ref string }
			} `json:"gates"`
		} `json:"decision"`
	}
	structured(t, res.StructuredContent, &out)
	if out.Task.Status != "active" {
		t.Errorf("task status %q: an advisory must not stop the start", out.Task.Status)
	}
	for _, g := range out.Decision.Gates {
		if g.Name != "renar_qg0_advisory" {
			continue
		}
		if g.Outcome != "FAILED" || len(g.Violations) != 1 || g.Violations[0].Detector != "renar_qg0_advisory" || g.Violations[0].Ref != "big" || g.Violations[0].Kind != "qg0-no-reasoning" ||
			!strings.HasPrefix(g.Violations[0].Msg, "RENAR (advisory): 'big' is deep but has no linked SPEC or ADAPT") {
			t.Errorf("renar_qg0_advisory: %+v", g)
		}
		return
	}
	t.Errorf("no renar_qg0_advisory verdict in %s", text(res))
}
