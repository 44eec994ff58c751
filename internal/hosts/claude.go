package hosts

import "fmt"

// claudeShaped is the payload Claude Code sends its PreToolUse and
// PostToolUse hooks, which Qwen Code, Gemini CLI, Codex and Factory copied:
// {session_id, cwd, hook_event_name, tool_name, tool_input}. Only the tool
// names differ, hence one parser over each host's tool table.
func claudeShaped(name, title string, tools map[string]tool) *Host {
	return register(&Host{Name: name, Title: title, answer: claudeAnswer, parse: func(b []byte) (call, error) {
		m, err := object(b)
		if err != nil {
			return call{}, err
		}
		c := call{tool: str(m, "tool_name"), cwd: str(m, "cwd"), session: str(m, "session_id"), subagent: subagentOf(m)}
		if c.tool == "" {
			return c, fmt.Errorf("%w: no tool_name", ErrPayload)
		}
		t, ok := tools[c.tool]
		if !ok {
			return otherTool(c, obj(m, "tool_input")), nil
		}
		return fromInput(c, t, obj(m, "tool_input"), "tool_input")
	}})
}

// Claude Code: .claude/settings.json hooks PreToolUse / PostToolUse.
var _ = withAsk(claudeShaped("claude", "Claude Code", map[string]tool{
	"Write": writes("file_path"), "Edit": writes("file_path"), "MultiEdit": writes("file_path"),
	"NotebookEdit": writes("notebook_path"), "Bash": runs("command"),
	"Read": reads, "Glob": reads, "Grep": reads, "LS": reads, "NotebookRead": reads,
}), claudeAsk)
