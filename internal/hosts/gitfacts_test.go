package hosts

import (
	"context"
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/project"
	"github.com/tausik/tausik/store"
)

// A pre-write hook runs no git: the only built-in pre-write gate that
// declares git facts, memory_route, judges the call's paths before a write
// (gate.yaml facts_at), and git status walks the whole tree. It still
// refuses a write into another tool's rules, and at a commit it still reads
// git.
func TestPreWriteGathersNoGit(t *testing.T) {
	root, getenv := scopedProject(t)
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	for _, p := range []struct {
		name, file string
		refused    bool
	}{{"in scope", "src/ok.py", false}, {"into another tool's rules", ".cursor/rules/x.md", true}} {
		payload := `{"session_id":"s","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"$ROOT/` + p.file + `","content":"x\n"}}`
		if code, _, stderr := runHook(t, "claude", root, getenv, Pre, payload); (code == 2) != p.refused {
			t.Fatalf("%s: exit %d, %s", p.name, code, stderr)
		}
	}
	e, err := project.Open(context.Background(), project.Setup{Root: root, Getenv: getenv, Requester: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Evaluate(context.Background(), engine.Request{Trigger: "commit"}); err != nil {
		t.Fatal(err)
	}
	gathered := map[string]map[string]bool{}
	routed := map[string]string{}
	entries, err := e.Store().ListDecisions(context.Background(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range entries {
		var body struct {
			Request struct {
				Trigger string   `json:"trigger"`
				Files   []string `json:"files"`
			} `json:"request"`
			Timings struct {
				Gather map[string]int64 `json:"gather_ns"`
			} `json:"timings"`
			Gates []struct{ Name, Outcome string } `json:"gates"`
		}
		if err := json.Unmarshal(d.Body, &body); err != nil {
			t.Fatal(err)
		}
		tr := body.Request.Trigger
		if gathered[tr] == nil {
			gathered[tr] = map[string]bool{}
		}
		for ns := range body.Timings.Gather {
			gathered[tr][ns] = true
		}
		for _, g := range body.Gates {
			if g.Name == "memory_route" && tr == engine.TriggerPreWrite && len(body.Request.Files) == 1 {
				routed[body.Request.Files[0]] = g.Outcome
			}
		}
	}
	if gathered[engine.TriggerPreWrite]["git"] || !gathered["commit"]["git"] {
		t.Errorf("git gathered at pre-write %v, at commit %v: want only at commit", gathered[engine.TriggerPreWrite]["git"], gathered["commit"]["git"])
	}
	if routed[".cursor/rules/x.md"] != engine.Failed || routed["src/ok.py"] != engine.NotApplicable {
		t.Errorf("memory_route before a write: %v", routed)
	}
}
