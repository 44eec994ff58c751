package hosts

import (
	"fmt"

	"github.com/tausik/tausik/engine/toolcall"
	"github.com/tausik/tausik/facts"
)

// Cursor: .cursor/hooks.json. preToolUse / postToolUse carry tool_name and
// tool_input (Write, StrReplace, Delete, EditNotebook with file_path or path;
// Shell with command); beforeShellExecution / afterShellExecution carry the
// command at the top level, afterFileEdit the file_path. The answer is JSON:
// {"permission": "allow"|"deny"|"ask", "user_message", "agent_message"}.
var _ = register(&Host{
	Name: "cursor", Title: "Cursor",
	parse: parseCursor,
	answer: answer{
		allowJSON: func(p Phase) any {
			if p == Post {
				return map[string]any{}
			}
			return map[string]any{"permission": "allow"}
		},
		denyJSON: func(reason string) any {
			return map[string]any{"permission": "deny", "user_message": reason, "agent_message": reason}
		},
		askJSON: func(reason string) any {
			return map[string]any{"permission": "ask", "user_message": reason, "agent_message": reason}
		},
	},
})

// mcpServer names the MCP server of a Cursor MCP hook: its url, or the
// command that starts it.
func mcpServer(m map[string]any) string {
	if u := str(m, "url"); u != "" {
		return u
	}
	return str(m, "command")
}

var cursorTools = map[string]tool{
	"Write": writes("file_path", "path"), "StrReplace": writes("file_path", "path"), "Delete": writes("file_path", "path"),
	"Edit": writes("file_path", "path"), "MultiEdit": writes("file_path", "path"),
	"EditNotebook": writes("target_notebook", "notebook_path", "file_path"), "Shell": runs("command"),
	"Read": reads, "Grep": reads, "Glob": reads, "LS": reads, "SemanticSearch": reads,
}

func parseCursor(b []byte) (call, error) {
	m, err := object(b)
	if err != nil {
		return call{}, err
	}
	c := call{cwd: str(m, "cwd"), session: str(m, "conversation_id")}
	if roots, ok := m["workspace_roots"].([]any); ok && len(roots) > 0 {
		c.project = workspaceRoot(roots, c.cwd)
		if c.cwd == "" {
			c.cwd, _ = roots[0].(string)
		}
	}
	switch ev := str(m, "hook_event_name"); ev {
	case "beforeShellExecution", "afterShellExecution":
		c.tool = "Shell"
		return fromInput(c, runs("command"), m, "payload")
	case "afterFileEdit":
		c.tool = "Write"
		return fromInput(c, writes("file_path"), m, "payload")
	case "beforeReadFile":
		c.tool, c.kind = "Read", "read"
		return c, nil
	case "beforeMCPExecution", "afterMCPExecution":
		c.tool, c.kind = "mcp:"+str(m, "tool_name"), toolcall.KindMCP
		c.mcp = &facts.ToolMCP{Server: mcpServer(m), Tool: str(m, "tool_name"), Args: args(m["tool_input"])}
		return c, nil
	}
	c.tool = str(m, "tool_name")
	if c.tool == "" {
		return c, fmt.Errorf("%w: no tool_name", ErrPayload)
	}
	t, ok := cursorTools[c.tool]
	if !ok {
		return otherTool(c, obj(m, "tool_input")), nil
	}
	return fromInput(c, t, obj(m, "tool_input"), "tool_input")
}
