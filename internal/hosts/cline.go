package hosts

import (
	"fmt"

	"github.com/tausik/tausik/engine/toolcall"
	"github.com/tausik/tausik/facts"
)

// Cline: hook scripts PreToolUse / PostToolUse receive {clineVersion,
// hookName, taskId, workspaceRoots, preToolUse: {toolName, parameters}} (or
// postToolUse); paths are relative to the first workspace root. The answer
// is JSON: {"cancel": bool, "errorMessage", "contextModification"}.
var _ = register(&Host{
	Name: "cline", Title: "Cline",
	parse: parseCline,
	answer: answer{
		allowJSON: func(Phase) any { return map[string]any{"cancel": false} },
		denyJSON: func(reason string) any {
			return map[string]any{"cancel": true, "errorMessage": reason, "contextModification": ""}
		},
		// After a call: the reason goes into the model's context.
		postBlockJSON: func(reason string) any {
			return map[string]any{"cancel": false, "errorMessage": "", "contextModification": reason}
		},
	},
})

// clineTools: attempt_completion runs its optional command to show the
// result, so it is judged as a shell call when it has one.
var clineTools = map[string]tool{
	"write_to_file": writes("path"), "replace_in_file": writes("path"), "new_rule": writes("path"),
	"apply_patch": patches("input", "patch"), "execute_command": runs("command"),
	"attempt_completion": runsIfGiven("command"), "read_file": reads, "list_files": reads, "search_files": reads, "list_code_definition_names": reads,
}

func parseCline(b []byte) (call, error) {
	m, err := object(b)
	if err != nil {
		return call{}, err
	}
	c := call{session: str(m, "taskId")}
	if roots, ok := m["workspaceRoots"].([]any); ok && len(roots) > 0 {
		c.cwd, _ = roots[0].(string)
		c.project = c.cwd
	}
	ev := obj(m, "preToolUse")
	if ev == nil {
		ev = obj(m, "postToolUse")
	}
	c.tool = str(ev, "toolName")
	if c.tool == "" {
		return c, fmt.Errorf("%w: no preToolUse.toolName", ErrPayload)
	}
	t, ok := clineTools[c.tool]
	if !ok {
		in := obj(ev, "parameters")
		c = otherTool(c, in)
		if c.tool == "use_mcp_tool" {
			c.kind = toolcall.KindMCP
			c.mcp = &facts.ToolMCP{Server: str(in, "server_name"), Tool: str(in, "tool_name"), Args: args(in["arguments"])}
		}
		return c, nil
	}
	return fromInput(c, t, obj(ev, "parameters"), "parameters")
}
