package hosts

import (
	"encoding/json"
	"fmt"
)

// GitHub Copilot (CLI and coding agent): .github/hooks/*.json preToolUse /
// postToolUse with {timestamp, cwd, toolName, toolArgs}, toolArgs being the
// tool's arguments as a JSON string. The answer is JSON:
// {"permissionDecision": "allow"|"deny", "permissionDecisionReason"}.
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
	},
})

var copilotTools = map[string]tool{
	"create": writes("path", "file_path"), "edit": writes("path", "file_path"), "write": writes("path", "file_path"),
	"str_replace": writes("path", "file_path"), "str_replace_editor": writes("path", "file_path"),
	"apply_patch": patches("input", "patch"),
	"bash":        runs("command"), "shell": runs("command"), "powershell": runs("command"),
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
		c.kind = "other"
		return c, nil
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
	return fromInput(c, t, args, "toolArgs")
}
