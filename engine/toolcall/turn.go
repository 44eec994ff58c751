package toolcall

// The lifecycle events of an agent's turn, as `tausik hook HOST EVENT` names
// them beside the tool-call events.
const (
	EventStop         = "stop"
	EventSessionStart = "session-start"
	EventPromptSubmit = "prompt-submit"
)

// Turn is what a decision records of the agent lifecycle event it was
// made for (a stop, a session start, a prompt): which host and session,
// and for a stop what the host said of its own loop and how many stops in
// a row tausik had refused before this one. A stop judgement is a
// task-done evaluation, and this record is what tells it apart from a
// person's `tausik task done` in the log.
type Turn struct {
	Host string `json:"host"`
	// Event is EventStop, EventSessionStart or EventPromptSubmit;
	// HostEvent the host's own name for it ("Stop", "AfterAgent", …).
	Event     string `json:"event"`
	HostEvent string `json:"host_event"`
	Session   string `json:"session,omitempty"`
	// Subagent: the stop is a sub-agent's (SubagentStop).
	Subagent bool `json:"subagent,omitempty"`
	// StopHookActive and HostLoops are the host's own loop signals
	// (Claude's stop_hook_active, Cursor's loop_count).
	StopHookActive bool `json:"stop_hook_active,omitempty"`
	HostLoops      int  `json:"host_loops,omitempty"`
	// Refused counts the stops of this session and task refused in a row
	// before this one; Bound is the most the guard refuses; Note says why
	// a stop the gates would refuse passes.
	Refused int    `json:"refused"`
	Bound   int    `json:"bound,omitempty"`
	Note    string `json:"note,omitempty"`
}
