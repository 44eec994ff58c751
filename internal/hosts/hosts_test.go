package hosts

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/internal/project"

	"github.com/tausik/tausik/engine"
)

// hostCase holds one host's real payload shapes ($ROOT is the project) and
// how to read its answer back.
type hostCase struct {
	host string
	// inScope writes src/ok.py, outScope docs/x.md, shellOut runs a shell
	// command writing docs/, read reads, harmless runs `ls -la`, malformed is a
	// write or shell call missing what it writes or runs.
	inScope, outScope, shellOut, read, harmless, malformed string
	denied                                                 func(t *testing.T, code int, stdout, stderr string) (bool, string)
}

// byExit2 reads Claude's protocol: exit 2 refuses with the reason on stderr.
func byExit2(t *testing.T, code int, stdout, stderr string) (bool, string) {
	if code != 0 && code != 2 {
		t.Fatalf("exit %d (stderr %s)", code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout %q, want nothing", stdout)
	}
	if code == 0 && stderr != "" {
		t.Errorf("allowed with stderr %q", stderr)
	}
	return code == 2, stderr
}

// byJSON reads a JSON host's answer (exit 0 always): field holds the
// decision, denyValue refuses, reasonField says why.
func byJSON(field string, denyValue any, reasonField string) func(*testing.T, int, string, string) (bool, string) {
	return func(t *testing.T, code int, stdout, stderr string) (bool, string) {
		if code != 0 {
			t.Fatalf("exit %d, want 0 (stderr %s)", code, stderr)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(stdout), &m); err != nil {
			t.Fatalf("stdout %q is not a JSON object: %v", stdout, err)
		}
		if m[field] == denyValue {
			r, _ := m[reasonField].(string)
			return true, r
		}
		return false, ""
	}
}

var hostCases = []hostCase{
	{host: "claude",
		inScope:   `{"session_id":"abc","transcript_path":"/t.jsonl","cwd":"$ROOT","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"$ROOT/src/ok.py","content":"x = 1\n"}}`,
		outScope:  `{"session_id":"abc","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"$ROOT/docs/x.md","old_string":"a","new_string":"b"}}`,
		shellOut:  `{"session_id":"abc","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cat > docs/x.md <<'EOF'\nhi\nEOF","description":"write"}}`,
		read:      `{"session_id":"abc","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"$ROOT/docs/x.md"}}`,
		harmless:  `{"session_id":"abc","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls -la"}}`,
		malformed: `{"session_id":"abc","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"content":"x"}}`,
		denied:    byExit2},
	{host: "qwen",
		inScope:   `{"session_id":"q1","cwd":"$ROOT","hook_event_name":"PreToolUse","timestamp":"2026-01-01T00:00:00Z","tool_name":"write_file","tool_input":{"file_path":"$ROOT/src/ok.py","content":"x"}}`,
		outScope:  `{"session_id":"q1","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"edit","tool_input":{"file_path":"$ROOT/docs/x.md","old_string":"a","new_string":"b"}}`,
		shellOut:  `{"session_id":"q1","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":"sed -i 's/a/b/' docs/x.md","description":"edit"}}`,
		read:      `{"session_id":"q1","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"read_file","tool_input":{"absolute_path":"$ROOT/docs/x.md"}}`,
		harmless:  `{"session_id":"q1","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":"ls -la"}}`,
		malformed: `{"session_id":"q1","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{}}`,
		denied:    byExit2},
	{host: "gemini",
		inScope:   `{"session_id":"g1","transcript_path":"/t","cwd":"$ROOT","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00Z","tool_name":"write_file","tool_input":{"file_path":"src/ok.py","content":"x"}}`,
		outScope:  `{"session_id":"g1","cwd":"$ROOT","hook_event_name":"BeforeTool","tool_name":"replace","tool_input":{"file_path":"$ROOT/docs/x.md","old_string":"a","new_string":"b","instruction":"fix"}}`,
		shellOut:  `{"session_id":"g1","cwd":"$ROOT","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"echo hi | tee docs/x.md"}}`,
		read:      `{"session_id":"g1","cwd":"$ROOT","hook_event_name":"BeforeTool","tool_name":"read_file","tool_input":{"file_path":"docs/x.md"}}`,
		harmless:  `{"session_id":"g1","cwd":"$ROOT","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"ls -la"}}`,
		malformed: `{"session_id":"g1","cwd":"$ROOT","hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":"src/ok.py"}`,
		denied:    byExit2},
	{host: "codex",
		inScope:   `{"session_id":"c1","transcript_path":null,"cwd":"$ROOT","hook_event_name":"PreToolUse","model":"gpt-5","turn_id":"t1","tool_name":"apply_patch","tool_use_id":"u1","tool_input":{"command":"*** Begin Patch\n*** Add File: src/ok.py\n+x = 1\n*** End Patch\n"}}`,
		outScope:  `{"session_id":"c1","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: src/ok.py\n*** Move to: docs/x.md\n@@\n-a\n+b\n*** End Patch\n"}}`,
		shellOut:  `{"session_id":"c1","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"shell","tool_input":{"command":["bash","-lc","mkdir -p docs && cp src/a.py docs/"],"workdir":"$ROOT"}}`,
		read:      `{"session_id":"c1","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"read_file","tool_input":{"path":"docs/x.md"}}`,
		harmless:  `{"session_id":"c1","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"shell","tool_input":{"command":["ls","-la"]}}`,
		malformed: `{"session_id":"c1","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"no patch here"}}`,
		denied:    byExit2},
	{host: "cursor",
		inScope:   `{"hook_event_name":"preToolUse","conversation_id":"cv1","generation_id":"gn1","model":"m","cursor_version":"2.1","workspace_roots":["$ROOT"],"tool_name":"Write","tool_input":{"file_path":"$ROOT/src/ok.py","contents":"x"}}`,
		outScope:  `{"hook_event_name":"preToolUse","conversation_id":"cv1","workspace_roots":["$ROOT"],"tool_name":"StrReplace","tool_input":{"path":"docs/x.md","old_string":"a","new_string":"b"}}`,
		shellOut:  `{"hook_event_name":"beforeShellExecution","conversation_id":"cv1","workspace_roots":["$ROOT"],"command":"rm -rf docs","cwd":"$ROOT"}`,
		read:      `{"hook_event_name":"preToolUse","conversation_id":"cv1","workspace_roots":["$ROOT"],"tool_name":"Read","tool_input":{"path":"docs/x.md"}}`,
		harmless:  `{"hook_event_name":"preToolUse","conversation_id":"cv1","workspace_roots":["$ROOT"],"tool_name":"Shell","tool_input":{"command":"ls -la"}}`,
		malformed: `{"hook_event_name":"preToolUse","conversation_id":"cv1","workspace_roots":["$ROOT"],"tool_name":"Delete","tool_input":{}}`,
		denied:    byJSON("permission", "deny", "agent_message")},
	{host: "copilot",
		inScope:   `{"timestamp":1767225600000,"cwd":"$ROOT","toolName":"create","toolArgs":"{\"path\":\"$ROOT/src/ok.py\",\"file_text\":\"x\"}"}`,
		outScope:  `{"timestamp":1767225600000,"cwd":"$ROOT","toolName":"edit","toolArgs":"{\"path\":\"docs/x.md\",\"old_str\":\"a\",\"new_str\":\"b\"}"}`,
		shellOut:  `{"timestamp":1767225600000,"cwd":"$ROOT","toolName":"bash","toolArgs":"{\"command\":\"touch docs/x.md\",\"description\":\"t\"}"}`,
		read:      `{"timestamp":1767225600000,"cwd":"$ROOT","toolName":"view","toolArgs":"{\"path\":\"docs/x.md\"}"}`,
		harmless:  `{"timestamp":1767225600000,"cwd":"$ROOT","toolName":"bash","toolArgs":"{\"command\":\"ls -la\"}"}`,
		malformed: `{"timestamp":1767225600000,"cwd":"$ROOT","toolName":"edit","toolArgs":"{not json"}`,
		denied:    byJSON("permissionDecision", "deny", "permissionDecisionReason")},
	{host: "windsurf",
		inScope:   `{"agent_action_name":"pre_write_code","trajectory_id":"tr1","execution_id":"ex1","timestamp":"2026-01-01T00:00:00Z","tool_info":{"file_path":"$ROOT/src/ok.py","edits":[{"old_string":"","new_string":"x"}]}}`,
		outScope:  `{"agent_action_name":"pre_write_code","trajectory_id":"tr1","execution_id":"ex2","tool_info":{"file_path":"$ROOT/docs/x.md","edits":[]}}`,
		shellOut:  `{"agent_action_name":"pre_run_command","trajectory_id":"tr1","execution_id":"ex3","tool_info":{"command_line":"echo x >> docs/x.md","cwd":"$ROOT"}}`,
		read:      `{"agent_action_name":"pre_read_code","trajectory_id":"tr1","tool_info":{"file_path":"$ROOT/docs/x.md"}}`,
		harmless:  `{"agent_action_name":"pre_run_command","trajectory_id":"tr1","tool_info":{"command_line":"ls -la","cwd":"$ROOT"}}`,
		malformed: `{"agent_action_name":"pre_write_code","trajectory_id":"tr1","tool_info":{"edits":[]}}`,
		denied:    byExit2},
	{host: "opencode",
		inScope:   `{"hook_event_name":"tool.execute.before","tool":"write","session_id":"ses_1","call_id":"call_1","cwd":"$ROOT","args":{"filePath":"$ROOT/src/ok.py","content":"x"}}`,
		outScope:  `{"hook_event_name":"tool.execute.before","tool":"edit","session_id":"ses_1","call_id":"call_2","cwd":"$ROOT","args":{"filePath":"docs/x.md","oldString":"a","newString":"b"}}`,
		shellOut:  `{"hook_event_name":"tool.execute.before","tool":"bash","session_id":"ses_1","call_id":"call_3","cwd":"$ROOT","args":{"command":"cd docs && git checkout -- x.md","description":"d"}}`,
		read:      `{"hook_event_name":"tool.execute.before","tool":"read","session_id":"ses_1","call_id":"call_4","cwd":"$ROOT","args":{"filePath":"docs/x.md"}}`,
		harmless:  `{"hook_event_name":"tool.execute.before","tool":"bash","session_id":"ses_1","call_id":"call_5","cwd":"$ROOT","args":{"command":"ls -la"}}`,
		malformed: `{"hook_event_name":"tool.execute.before","tool":"patch","session_id":"ses_1","cwd":"$ROOT","args":{"patchText":""}}`,
		denied:    byExit2},
	{host: "kilo",
		inScope:   `{"hook_event_name":"tool.execute.before","tool":"apply_patch","session_id":"k","cwd":"$ROOT","args":{"patchText":"*** Begin Patch\n*** Add File: src/ok.py\n+x\n*** End Patch"}}`,
		outScope:  `{"hook_event_name":"tool.execute.before","tool":"apply_patch","session_id":"k","cwd":"$ROOT","args":{"patchText":"*** Begin Patch\n*** Delete File: docs/x.md\n*** End Patch"}}`,
		shellOut:  `{"hook_event_name":"tool.execute.before","tool":"bash","session_id":"k","cwd":"$ROOT","args":{"command":"mv docs/x.md src/"}}`,
		read:      `{"hook_event_name":"tool.execute.before","tool":"grep","session_id":"k","cwd":"$ROOT","args":{"pattern":"x"}}`,
		harmless:  `{"hook_event_name":"tool.execute.before","tool":"bash","session_id":"k","cwd":"$ROOT","args":{"command":"git status"}}`,
		malformed: `{"hook_event_name":"tool.execute.before","session_id":"k","cwd":"$ROOT","args":{}}`,
		denied:    byExit2},
	{host: "factory",
		inScope:   `{"session_id":"f1","transcript_path":"/t","cwd":"$ROOT","permission_mode":"auto","hook_event_name":"PreToolUse","tool_name":"Create","tool_input":{"file_path":"$ROOT/src/ok.py","content":"x"}}`,
		outScope:  `{"session_id":"f1","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"$ROOT/docs/x.md","old_str":"a","new_str":"b"}}`,
		shellOut:  `{"session_id":"f1","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"python3 -c 'open(\"docs/x.md\",\"w\")'"}}`,
		read:      `{"session_id":"f1","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"$ROOT/docs/x.md"}}`,
		harmless:  `{"session_id":"f1","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"ls -la"}}`,
		malformed: `not json at all`,
		denied:    byExit2},
	{host: "cline",
		inScope:   `{"clineVersion":"3.36.0","hookName":"PreToolUse","timestamp":"1767225600000","taskId":"tk1","workspaceRoots":["$ROOT"],"userId":"u","preToolUse":{"toolName":"write_to_file","parameters":{"path":"src/ok.py","content":"x"}}}`,
		outScope:  `{"clineVersion":"3.36.0","hookName":"PreToolUse","taskId":"tk1","workspaceRoots":["$ROOT"],"preToolUse":{"toolName":"replace_in_file","parameters":{"path":"docs/x.md","diff":"------- SEARCH\na\n=======\nb\n+++++++ REPLACE"}}}`,
		shellOut:  `{"clineVersion":"3.36.0","hookName":"PreToolUse","taskId":"tk1","workspaceRoots":["$ROOT"],"preToolUse":{"toolName":"execute_command","parameters":{"command":"echo x > $OUT","requires_approval":"false"}}}`,
		read:      `{"clineVersion":"3.36.0","hookName":"PreToolUse","taskId":"tk1","workspaceRoots":["$ROOT"],"preToolUse":{"toolName":"read_file","parameters":{"path":"docs/x.md"}}}`,
		harmless:  `{"clineVersion":"3.36.0","hookName":"PreToolUse","taskId":"tk1","workspaceRoots":["$ROOT"],"preToolUse":{"toolName":"execute_command","parameters":{"command":"ls -la"}}}`,
		malformed: `{"clineVersion":"3.36.0","hookName":"PreToolUse","taskId":"tk1","workspaceRoots":["$ROOT"],"preToolUse":{"toolName":"write_to_file","parameters":{"content":"x"}}}`,
		denied:    byJSON("cancel", true, "errorMessage")},
}

// scopedProject is a project with a task scoped to src/, in a real store.
func scopedProject(t *testing.T) (string, func(string) string) {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"src", "docs"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
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
	defer e.Close()
	startScopedTask(t, e, "feat", []string{"src/"})

	return root, getenv
}

// runHook runs host's pre-tool-use on payload in root.
func runHook(t *testing.T, host, root string, getenv func(string) string, phase Phase, payload string) (int, string, string) {
	t.Helper()
	h, ok := Lookup(host)
	if !ok {
		t.Fatalf("no host %s", host)
	}
	var stdout, stderr bytes.Buffer
	code := Run(context.Background(), h, phase, Env{
		Stdin: strings.NewReader(strings.ReplaceAll(payload, "$ROOT", root)), Stdout: &stdout, Stderr: &stderr,
		Getenv: getenv, WD: root,
		Open: func(ctx context.Context, _ Where) (*engine.Engine, error) {
			return project.Open(ctx, project.Setup{Root: root, Getenv: getenv, Requester: "hook:" + h.Name})
		},
	})
	return code, stdout.String(), stderr.String()
}

func TestHostsJudgeWritesShellAndPatches(t *testing.T) {
	root, getenv := scopedProject(t)
	seen := map[string]bool{}
	for _, hc := range hostCases {
		seen[hc.host] = true
		for _, p := range []struct {
			name, payload, why string
			deny               bool
		}{
			{"in-scope write", hc.inScope, "", false},
			{"out-of-scope write", hc.outScope, "outside the scope of the active task(s) (feat [\"src/\"])", true},
			{"out-of-scope shell write", hc.shellOut, "- scope_write: ", true},
			{"read", hc.read, "", false},
			{"harmless command", hc.harmless, "", false},
			{"malformed payload", hc.malformed, "malformed hook payload", true},
		} {
			code, stdout, stderr := runHook(t, hc.host, root, getenv, Pre, p.payload)
			denied, why := hc.denied(t, code, stdout, stderr)
			if denied != p.deny || !strings.Contains(why, p.why) || (p.deny && !strings.HasPrefix(why, denyPrefix)) {
				t.Errorf("%s %s: denied=%v reason %q; want denied=%v with %q\nstderr: %s", hc.host, p.name, denied, why, p.deny, p.why, stderr)
			}
		}
	}
	for _, name := range Names() {
		if !seen[name] {
			t.Errorf("host %s has no payload table", name)
		}
	}
}
