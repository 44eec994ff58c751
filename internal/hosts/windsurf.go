package hosts

import "fmt"

// Windsurf (Cascade): .windsurf/hooks.json pre_write_code / pre_run_command
// (and their post_ halves) with {agent_action_name, trajectory_id,
// tool_info}: tool_info.file_path for a write, tool_info.command_line and
// cwd for a command. Hooks run in the workspace; exit 2 refuses with the
// reason on stderr.
var _ = register(&Host{Name: "windsurf", Title: "Windsurf", parse: parseWindsurf, answer: exit2Answer, workspaceCWD: true})

func parseWindsurf(b []byte) (call, error) {
	m, err := object(b)
	if err != nil {
		return call{}, err
	}
	info := obj(m, "tool_info")
	c := call{session: str(m, "trajectory_id"), cwd: str(info, "cwd")}
	switch ev := str(m, "agent_action_name"); ev {
	case "pre_write_code", "post_write_code":
		c.tool = "write_code"
		return fromInput(c, writes("file_path"), info, "tool_info")
	case "pre_run_command", "post_run_command":
		c.tool = "run_command"
		return fromInput(c, runs("command_line", "command"), info, "tool_info")
	case "pre_read_code", "post_read_code":
		c.tool, c.kind = "read_code", "read"
		return c, nil
	case "":
		return c, fmt.Errorf("%w: no agent_action_name", ErrPayload)
	default:
		c.tool, c.kind = ev, "other"
		return c, nil
	}
}
