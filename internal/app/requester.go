package app

import (
	"cmp"
	"strings"
)

// agentMarkers are the environment variables agent hosts set in the shell
// their agent's commands run in (docs/hosts.md "Who is an agent"): a
// tausik run that sees one was asked by the agent, not by a person. AGENT
// carries the agent's own name; the others name their host.
var agentMarkers = []struct{ env, host string }{
	{"CLAUDECODE", "claude"},
	{"GEMINI_CLI", "gemini"},
	{"QWEN_CODE", "qwen"},
	{"CODEX_SANDBOX", "codex"},
	{"CODEX_SANDBOX_NETWORK_DISABLED", "codex"},
	{"CURSOR_AGENT", "cursor"},
	{"OPENCODE", "opencode"},
	{"AGENT", ""},
}

// AgentMarkers are the names of the environment variables that make a
// command-line run an agent's.
func AgentMarkers() []string {
	out := make([]string, len(agentMarkers))
	for i, m := range agentMarkers {
		out[i] = m.env
	}
	return out
}

// Requester is who asked for a command-line run, from its environment:
// "agent:<host>" when an agent host's marker is set, else "cli" (a
// person). A marker is set when its value is not empty and not exactly
// "0": blank (" ") counts, as taking an agent for a person is the unsafe
// side. An empty value reads as unset, as a shell's ${VAR:-} does. AGENT
// with a blank value is "agent:unnamed".
func Requester(getenv func(string) string) string {
	for _, m := range agentMarkers {
		v := getenv(m.env)
		if v == "" || v == "0" {
			continue
		}
		host := m.host
		if host == "" {
			host = cmp.Or(strings.ToLower(strings.TrimSpace(v)), "unnamed")
		}
		return "agent:" + host
	}
	return "cli"
}
