package app

import "testing"

// TestRequester: a marker set to anything but "0", blank included, makes
// the run an agent's (taking an agent for a person is the unsafe side); an
// empty marker is unset, as a shell's ${VAR:-} reads it.
func TestRequester(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{nil, "cli"},
		{map[string]string{"CLAUDECODE": ""}, "cli"},
		{map[string]string{"CLAUDECODE": "0"}, "cli"},
		{map[string]string{"CLAUDECODE": "1"}, "agent:claude"},
		{map[string]string{"CLAUDECODE": " "}, "agent:claude"},
		{map[string]string{"GEMINI_CLI": "\t\n"}, "agent:gemini"},
		{map[string]string{"CODEX_SANDBOX": " 0"}, "agent:codex"},
		{map[string]string{"AGENT": "Goose"}, "agent:goose"},
		{map[string]string{"AGENT": "  "}, "agent:unnamed"},
	} {
		got := Requester(func(k string) string { return c.env[k] })
		if got != c.want {
			t.Errorf("Requester(%q) = %q, want %q", c.env, got, c.want)
		}
	}
}
