package hosts

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine"
)

// TestSessionInputIsJudged: the tools that type into a shell session a
// previous call started (Copilot's write_bash and write_powershell, Codex's
// write_stdin) and Cline's attempt_completion, which runs its optional
// command, are shell calls: what they would run is judged like a command.
// Without input (a poll, a completion with no demo) they pass.
func TestSessionInputIsJudged(t *testing.T) {
	root, getenv := scopedProject(t)
	copilotDenied := byJSON("permissionDecision", "deny", "permissionDecisionReason")
	clineDenied := byJSON("cancel", true, "errorMessage")
	for _, c := range []struct {
		host, payload string
		denied        func(*testing.T, int, string, string) (bool, string)
		deny          bool
	}{
		{"copilot", `{"cwd":"$ROOT","toolName":"write_bash","toolArgs":"{\"shellId\":\"1\",\"input\":\"echo hi > docs/x.md{enter}\",\"delay\":5}"}`, copilotDenied, true},
		{"copilot", `{"cwd":"$ROOT","toolName":"write_powershell","toolArgs":"{\"shellId\":\"1\",\"input\":\"rm docs/x.md{enter}\"}"}`, copilotDenied, true},
		{"copilot", `{"cwd":"$ROOT","toolName":"write_bash","toolArgs":"{\"shellId\":\"1\",\"input\":\"{down}{enter}\"}"}`, copilotDenied, false},
		// Backspaces take back what was typed: this runs `touch docs/x.md`.
		{"copilot", `{"cwd":"$ROOT","toolName":"write_bash","toolArgs":"{\"shellId\":\"1\",\"input\":\"touch src/ok.py` +
			strings.Repeat("{backspace}", len("src/ok.py")) + `docs/x.md{enter}\"}"}`, copilotDenied, true},
		{"codex", `{"cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"write_stdin","tool_input":{"session_id":3,"chars":"touch docs/x.md\n"}}`, byExit2, true},
		{"codex", `{"cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"write_stdin","tool_input":{"session_id":3,"chars":""}}`, byExit2, false},
		{"cline", `{"hookName":"PreToolUse","workspaceRoots":["$ROOT"],"preToolUse":{"toolName":"attempt_completion","parameters":{"result":"done","command":"rm -rf docs"}}}`, clineDenied, true},
		{"cline", `{"hookName":"PreToolUse","workspaceRoots":["$ROOT"],"preToolUse":{"toolName":"attempt_completion","parameters":{"result":"done"}}}`, clineDenied, false},
	} {
		code, stdout, stderr := runHook(t, c.host, root, getenv, Pre, c.payload)
		if denied, why := c.denied(t, code, stdout, stderr); denied != c.deny || (denied && !strings.Contains(why, "docs")) {
			t.Errorf("%s %s: denied=%v (%q), want %v", c.host, c.payload, denied, why, c.deny)
		}
	}
}

// TestOptionalCommandOfWrongType: a tool whose command is optional passes
// only when the command is absent; one of the wrong type is a malformed
// payload, refused, never read as a tool that runs nothing.
func TestOptionalCommandOfWrongType(t *testing.T) {
	root, getenv := scopedProject(t)
	for _, c := range []struct {
		host, payload string
		denied        func(*testing.T, int, string, string) (bool, string)
	}{
		{"codex", `{"cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"write_stdin","tool_input":{"session_id":3,"chars":7}}`, byExit2},
		{"cline", `{"hookName":"PreToolUse","workspaceRoots":["$ROOT"],"preToolUse":{"toolName":"attempt_completion","parameters":{"result":"done","command":{"run":"x"}}}}`, byJSON("cancel", true, "errorMessage")},
		{"copilot", `{"cwd":"$ROOT","toolName":"write_bash","toolArgs":"{\"shellId\":\"1\",\"input\":[\"ls\", 3]}"}`, byJSON("permissionDecision", "deny", "permissionDecisionReason")},
	} {
		code, stdout, stderr := runHook(t, c.host, root, getenv, Pre, c.payload)
		if denied, why := c.denied(t, code, stdout, stderr); !denied || !strings.Contains(why, "malformed") {
			t.Errorf("%s %s: denied=%v (%q), want a malformed-payload refusal", c.host, c.payload, denied, why)
		}
	}
}

// TestUnknownToolsPass pins the decision docs/hosts.md explains: a tool an
// adapter does not know — a built-in added after the table was written, or
// an MCP tool the host names in a shape the adapter does not read — is kind
// other and passes without the engine being opened. (An MCP tool call and a
// fetch the adapter reads are judged: TestMCPAndFetchCallsAreJudged.)
func TestUnknownToolsPass(t *testing.T) {
	for host, payload := range map[string]string{
		"qwen":     `{"cwd":"/p","tool_name":"todo_write","tool_input":{"todos":[]}}`,
		"gemini":   `{"cwd":"/p","tool_name":"google_web_search","tool_input":{"query":"x"}}`,
		"codex":    `{"cwd":"/p","tool_name":"update_plan","tool_input":{"plan":[]}}`,
		"factory":  `{"cwd":"/p","tool_name":"TodoWrite","tool_input":{}}`,
		"cursor":   `{"hook_event_name":"preToolUse","workspace_roots":["/p"],"tool_name":"WebSearch","tool_input":{"query":"x"}}`,
		"copilot":  `{"cwd":"/p","toolName":"github-mcp-server-list_issues","toolArgs":"{}"}`,
		"windsurf": `{"agent_action_name":"pre_mcp_tool_use","tool_info":{"mcp_server_name":"s","mcp_tool_name":"t"}}`,
	} {
		h, _ := Lookup(host)
		var stdout, stderr bytes.Buffer
		opened := false
		code := Run(context.Background(), h, Pre, Env{
			Stdin: strings.NewReader(payload), Stdout: &stdout, Stderr: &stderr, WD: "/p",
			Open: func(context.Context, Where) (*engine.Engine, error) {
				opened = true
				return nil, errors.New("an unknown tool must not need the engine")
			},
		})
		if code != 0 || opened || strings.Contains(stdout.String(), "deny") || strings.Contains(stdout.String(), `"cancel":true`) {
			t.Errorf("%s: exit %d, engine opened %v, stdout %q, stderr %q; want a pass", host, code, opened, stdout.String(), stderr.String())
		}
	}
}
