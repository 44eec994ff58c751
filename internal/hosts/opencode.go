package hosts

import "fmt"

// OpenCode and Kilo: their plugin (.opencode/plugins/tausik.*, written by
// `tausik init`) runs `tausik hook opencode pre-tool-use|post-tool-use` from
// tool.execute.before / tool.execute.after with {hook_event_name, tool,
// session_id, call_id, cwd, args}; exit 2 refuses and the plugin throws an
// Error carrying stderr.
var _ = register(&Host{Name: "opencode", Title: "OpenCode / Kilo", parse: parseOpenCode, answer: exit2Answer})

var opencodeTools = map[string]tool{
	"write": writes("filePath", "file_path"), "edit": writes("filePath", "file_path"), "multiedit": writes("filePath", "file_path"),
	"patch": patches("patchText", "patch"), "apply_patch": patches("patchText", "patch"),
	"bash": runs("command"),
	"read": reads, "glob": reads, "grep": reads, "list": reads,
}

func parseOpenCode(b []byte) (call, error) {
	m, err := object(b)
	if err != nil {
		return call{}, err
	}
	c := call{tool: str(m, "tool"), cwd: str(m, "cwd"), session: str(m, "session_id")}
	if c.tool == "" {
		return c, fmt.Errorf("%w: no tool", ErrPayload)
	}
	t, ok := opencodeTools[c.tool]
	if !ok {
		return otherTool(c, obj(m, "args")), nil
	}
	return fromInput(c, t, obj(m, "args"), "args")
}
