package hosts

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// GitHub Copilot (CLI and coding agent): .github/hooks/*.json preToolUse /
// postToolUse with {timestamp, cwd, toolName, toolArgs}, toolArgs being the
// tool's arguments as a JSON string. The answer is JSON:
// {"permissionDecision": "allow"|"deny"|"ask", "permissionDecisionReason"}.
var _ = register(&Host{
	Name: "copilot", Title: "GitHub Copilot",
	parse: parseCopilot,
	answer: answer{
		allowJSON: func(p Phase) any {
			if p == Post {
				return nil
			}
			return map[string]any{"permissionDecision": "allow"}
		},
		denyJSON: func(reason string) any {
			return map[string]any{"permissionDecision": "deny", "permissionDecisionReason": reason}
		},
		askJSON: func(reason string) any {
			return map[string]any{"permissionDecision": "ask", "permissionDecisionReason": reason}
		},
	},
})

var copilotTools = map[string]tool{
	"create": writes("path", "file_path"), "edit": writes("path", "file_path"), "write": writes("path", "file_path"),
	"str_replace": writes("path", "file_path"), "str_replace_editor": writes("path", "file_path"),
	"apply_patch": patches("input", "patch"),
	"bash":        runs("command"), "shell": runs("command"), "powershell": runs("command"),
	// Input typed into an async session a bash or powershell call started.
	"write_bash": runsIfGiven("input"), "write_powershell": runsIfGiven("input"),
	"view": reads, "read": reads, "glob": reads, "grep": reads, "rg": reads, "list": reads,
}

func parseCopilot(b []byte) (call, error) {
	m, err := object(b)
	if err != nil {
		return call{}, err
	}
	c := call{tool: str(m, "toolName"), cwd: str(m, "cwd"), session: str(m, "sessionId")}
	if c.tool == "" {
		return c, fmt.Errorf("%w: no toolName", ErrPayload)
	}
	t, ok := copilotTools[c.tool]
	if !ok {
		return otherTool(c, args(m["toolArgs"])), nil
	}
	var args map[string]any
	switch v := m["toolArgs"].(type) {
	case string:
		if err := json.Unmarshal([]byte(v), &args); err != nil {
			c.kind = t.kind
			return c, fmt.Errorf("%w: %s toolArgs is not a JSON object: %v", ErrPayload, c.tool, err)
		}
	case map[string]any:
		args = v // tolerated: an object instead of its JSON text
	}
	c, err = fromInput(c, t, args, "toolArgs")
	if t.optional {
		c.command = typedKeys(c.command)
	}
	return c, err
}

// typedKeys turns the keys write_bash spells out into what the session
// receives: {enter} ends a line, {backspace} takes back the rune before it.
// Cursor keys ({up}, {left}, …) stay as text: a line edited with them, or
// recalled from history, is judged as typed.
func typedKeys(s string) string {
	var out []rune
	for s != "" {
		switch {
		case strings.HasPrefix(s, "{enter}"):
			out, s = append(out, '\n'), s[len("{enter}"):]
		case strings.HasPrefix(s, "{backspace}"):
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			s = s[len("{backspace}"):]
		default:
			r, n := utf8.DecodeRuneInString(s)
			out, s = append(out, r), s[n:]
		}
	}
	return string(out)
}
