package facts

// NotAToolCall is the reason the tool namespace is unavailable at a trigger
// that judges no agent tool call.
const NotAToolCall = "not_a_tool_call"

// Tool is the "tool" namespace: the agent tool call a hook judges, as its
// host adapter normalised it (see docs/facts.md). Lists are never null.
type Tool struct {
	Host  string `json:"host"`  // the adapter's name
	Event string `json:"event"` // the hook event, e.g. "pre-tool-use"
	Name  string `json:"name"`  // the host's own tool name
	Kind  string `json:"kind"`  // write, shell, read, mcp, fetch or other
	// Command is a shell call's command text as given (a patch tool's
	// patch text).
	Command string `json:"command"`
	// Commands are a shell call's simple commands, wrappers stripped,
	// through pipes, subshells and literal `sh -c` strings.
	Commands []ToolShellCommand `json:"commands"`
	// Targets are the repo-relative paths the call would write.
	Targets       []string       `json:"targets"`
	UnknownWrites []UnknownWrite `json:"unknown_writes"`
	// Writes hold, per written path whose text the call shows, that text
	// after the call.
	Writes   []ToolWrite   `json:"writes"`
	MCP      *ToolMCP      `json:"mcp,omitempty"`
	URL      string        `json:"url,omitempty"`
	Subagent *ToolSubagent `json:"subagent,omitempty"`
}

// ToolShellCommand is one simple command of a shell call. Dynamic[i] says
// Argv[i] is known only at run time; Argv[i] is then "".
type ToolShellCommand struct {
	Argv      []string       `json:"argv"`
	Dynamic   []bool         `json:"dynamic"`
	Redirects []ToolRedirect `json:"redirects"`
	Heredocs  []string       `json:"heredocs"`
	// Dir is the directory the command starts in (the call's working
	// directory moved by cd, pushd, env -C, sudo -D): project-relative
	// ("." for the root) inside the project, absolute outside it, "" when
	// it is known only at run time or the call names no working directory.
	Dir string `json:"dir"`
}

// ToolRedirect is one redirection of a command: its operator with the
// descriptor it names ("2>", ">>", "<") and its target ("" when dynamic).
type ToolRedirect struct {
	Op     string `json:"op"`
	Target string `json:"target"`
}

// ToolWrite is one path a write, edit or patch tool (or a shell write whose
// text is known) writes. Error, when set, says the text after the call
// cannot be known (an edit that cannot apply, a file over the size bound):
// Text is then empty and a gate reading it must not pass.
type ToolWrite struct {
	Path  string   `json:"path"`
	Text  string   `json:"text"`
	Added []string `json:"added"`
	Error string   `json:"error"`
}

// ToolMCP is an MCP tool call: the server, the tool and its arguments.
type ToolMCP struct {
	Server string         `json:"server"`
	Tool   string         `json:"tool"`
	Args   map[string]any `json:"args"`
}

// ToolSubagent names the sub-agent that made the call, where the host says.
type ToolSubagent struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}
