package hosts

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/project"
	"github.com/tausik/tausik/internal/treestate"
	"github.com/tausik/tausik/runners"

	"github.com/tausik/tausik/store"
)

// postShell is each host's payload after a shell call ran `bash tools/w.sh`.
var postShell = map[string]string{
	"claude":   `{"session_id":"s","cwd":"$ROOT","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"bash tools/w.sh"},"tool_response":{"stdout":""}}`,
	"qwen":     `{"session_id":"s","cwd":"$ROOT","hook_event_name":"PostToolUse","tool_name":"run_shell_command","tool_input":{"command":"bash tools/w.sh"}}`,
	"gemini":   `{"session_id":"s","cwd":"$ROOT","hook_event_name":"AfterTool","tool_name":"run_shell_command","tool_input":{"command":"bash tools/w.sh"},"tool_response":{}}`,
	"codex":    `{"session_id":"s","cwd":"$ROOT","hook_event_name":"PostToolUse","tool_name":"shell","tool_input":{"command":["bash","-lc","bash tools/w.sh"]}}`,
	"factory":  `{"session_id":"s","cwd":"$ROOT","hook_event_name":"PostToolUse","tool_name":"Execute","tool_input":{"command":"bash tools/w.sh"}}`,
	"cursor":   `{"hook_event_name":"afterShellExecution","conversation_id":"c","workspace_roots":["$ROOT"],"command":"bash tools/w.sh","output":"","cwd":"$ROOT"}`,
	"copilot":  `{"timestamp":1767225600000,"cwd":"$ROOT","toolName":"bash","toolArgs":"{\"command\":\"bash tools/w.sh\"}","toolResult":{"resultType":"success"}}`,
	"windsurf": `{"agent_action_name":"post_run_command","trajectory_id":"t","tool_info":{"command_line":"bash tools/w.sh","cwd":"$ROOT"}}`,
	"opencode": `{"hook_event_name":"tool.execute.after","tool":"bash","session_id":"s","cwd":"$ROOT","args":{"command":"bash tools/w.sh"}}`,
	"kilo":     `{"hook_event_name":"tool.execute.after","tool":"bash","session_id":"s","cwd":"$ROOT","args":{"command":"bash tools/w.sh"}}`,
	"cline":    `{"clineVersion":"3.36.0","hookName":"PostToolUse","taskId":"t","workspaceRoots":["$ROOT"],"postToolUse":{"toolName":"execute_command","parameters":{"command":"bash tools/w.sh"}}}`,
}

// postReported reads a host's answer after a call: the report the model
// gets, "" when the hook stayed silent.
func postReported(t *testing.T, host string, code int, stdout, stderr string) string {
	t.Helper()
	var m map[string]any
	if strings.TrimSpace(stdout) != "" {
		if err := json.Unmarshal([]byte(stdout), &m); err != nil {
			t.Fatalf("%s: stdout %q is not JSON", host, stdout)
		}
	}
	switch host {
	case "claude", "qwen", "gemini", "codex", "factory":
		if code != 0 {
			t.Fatalf("%s: exit %d, want 0 (%s)", host, code, stderr)
		}
		if m["decision"] == "block" {
			r, _ := m["reason"].(string)
			return r
		}
		return ""
	case "cline":
		if code != 0 || m["cancel"] != false {
			t.Fatalf("%s: exit %d, stdout %q", host, code, stdout)
		}
		r, _ := m["contextModification"].(string)
		return r
	}
	// No way to block after the fact: stderr with exit 2.
	if code == 2 {
		return stderr
	}
	if code != 0 || stderr != "" {
		t.Fatalf("%s: exit %d stderr %q", host, code, stderr)
	}
	return ""
}

// TestPostToolUseReportsOutOfScopeChangesOnEveryHost: for every host, a
// shell call whose script wrote outside the task's scope is reported right
// after it ran, and the same call is silent once the write is undone.
func TestPostToolUseReportsOutOfScopeChangesOnEveryHost(t *testing.T) {
	root, getenv := scopedGitProject(t, map[string]string{"src/a": "a\n", "tools/w.sh": "echo x > other/y\n", "other/keep": "k\n"})
	seen := map[string]bool{}
	for _, host := range Names() {
		payload, ok := postShell[host]
		if !ok {
			t.Errorf("host %s has no post-tool-use payload", host)
			continue
		}
		seen[host] = true
		run := exec.Command("bash", "tools/w.sh")
		run.Dir = root
		if b, err := run.CombinedOutput(); err != nil {
			t.Fatalf("run the script: %v %s", err, b)
		}
		code, stdout, stderr := runHook(t, host, root, getenv, Post, payload)
		r := postReported(t, host, code, stdout, stderr)
		if !strings.HasPrefix(r, postBlockPrefix) || !strings.Contains(r, "other/y was created since task feat started") {
			t.Errorf("%s: after the script wrote other/y, report %q", host, r)
		}
		if err := os.Remove(filepath.Join(root, "other/y")); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr = runHook(t, host, root, getenv, Post, payload)
		if r := postReported(t, host, code, stdout, stderr); r != "" {
			t.Errorf("%s: reverted, yet reported %q", host, r)
		}
	}
	for h := range postShell {
		if !seen[h] {
			t.Errorf("payload for unknown host %s", h)
		}
	}
}

// scopedGitProject is a git repository holding files, committed, with
// task feat started scoped to src/, and the getenv its hooks run with.
func scopedGitProject(t *testing.T, files map[string]string) (string, func(string) string) {
	t.Helper()
	root := t.TempDir()
	for p, text := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "i"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	home := t.TempDir()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	e, err := project.Open(context.Background(), project.Setup{Root: root, Getenv: getenv, Requester: "test"})
	if err != nil {
		t.Fatal(err)
	}
	startScopedTask(t, e, "feat", []string{"src/"})
	e.Close()
	return root, getenv
}

// startScopedTask starts task slug with scope as `tausik task start` stores
// it, the work tree's state first, so the backstop has a record to judge
// against; the task-start gates are the app layer's and are not asked here.
func startScopedTask(t *testing.T, e *engine.Engine, slug string, scope []string) {
	t.Helper()
	ctx := context.Background()
	tree, err := treestate.Record(ctx, e.Root(), runners.GitEnv())
	if err != nil {
		t.Fatal(err)
	}
	task := store.Task{Slug: slug, Goal: "work in " + strings.Join(scope, ", "), Scope: scope,
		Tier: store.TierStandard, Complexity: store.ComplexityMedium}
	if _, err := e.Store().CreateTask(ctx, task); err != nil {
		t.Fatal(err)
	}
	if err := e.Store().PutTaskTree(ctx, slug, tree.Encode()); err != nil {
		t.Fatal(err)
	}
}
