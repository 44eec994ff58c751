package hosts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// teamToolGate is a team's gate over MCP and fetch calls: no deleting a
// repository through the github server, no fetching from a host the team
// does not trust.
const teamToolGate = `package tausik.gates.no_risky_tools

violations contains {"msg": sprintf("the %s server's %s may not be called by an agent", [m.server, m.tool]), "rule": "mcp"} if {
	input.tool.kind == "mcp"
	m := input.tool.mcp
	m.server == "github"
	m.tool == "delete_repository"
}

violations contains {"msg": sprintf("%s is not a trusted host", [input.tool.url]), "rule": "fetch"} if {
	input.tool.kind == "fetch"
	startswith(input.tool.url, "https://evil.example/")
}
`

// TestMCPAndFetchCallsAreJudged: an MCP tool call and a fetch reach the
// pre-write gates with their server, tool, arguments and URL, so a team
// gate over them refuses the call through the real hook, and lets the
// calls it does not name through.
func TestMCPAndFetchCallsAreJudged(t *testing.T) {
	root, getenv := openProject(t)
	dir := filepath.Join(root, "tausik", "policies", "no_risky_tools")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gate := "name: no_risky_tools\ndescription: no risky MCP tools or fetches\nprevents: an agent deleting a repository or fetching from an untrusted host\n" +
		"phase: hook\ntriggers: [pre-write]\nseverity: block\nenabled: true\nlanguage: rego\nfacts: [tool]\nparams: {}\n"
	for name, text := range map[string]string{"gate.yaml": gate, "policy.rego": teamToolGate} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		host, payload string
		deny          bool
	}{
		{"claude", `{"session_id":"s","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"mcp__github__delete_repository","tool_input":{"repo":"x/y"}}`, true},
		{"claude", `{"session_id":"s","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"mcp__github__create_issue","tool_input":{"title":"x"}}`, false},
		{"claude", `{"session_id":"s","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"WebFetch","tool_input":{"url":"https://evil.example/x","prompt":"p"}}`, true},
		{"claude", `{"session_id":"s","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"WebFetch","tool_input":{"url":"https://go.dev/doc","prompt":"p"}}`, false},
		{"opencode", `{"hook_event_name":"tool.execute.before","tool":"webfetch","session_id":"o","cwd":"$ROOT","args":{"url":"https://evil.example/y"}}`, true},
	} {
		code, stdout, stderr := runHook(t, c.host, root, getenv, Pre, c.payload)
		denied, why := byExit2(t, code, stdout, stderr)
		if denied != c.deny || denied && !strings.Contains(why, "no_risky_tools") {
			t.Errorf("%s %s: denied=%v (%q), want %v by no_risky_tools", c.host, c.payload, denied, why, c.deny)
		}
	}
}
