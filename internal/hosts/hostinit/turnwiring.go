package hostinit

// The lifecycle events of an agent's turn (`tausik hook <host> stop|
// session-start|prompt-submit`).
const (
	Stop         = "stop"
	SessionStart = "session-start"
	PromptSubmit = "prompt-submit"
)

// turnEvent is one lifecycle event of a host: tausik's name and the host's.
type turnEvent struct{ ours, host string }

// turnHooks lists, per host with a grouped settings file, its own
// lifecycle events and the tausik event each runs, in the order the
// events happen in a turn. A host missing here has no such event that
// tausik answers (see docs/hosts.md, the table of events × hosts).
var turnHooks = map[string][]turnEvent{
	"claude":  {{SessionStart, "SessionStart"}, {PromptSubmit, "UserPromptSubmit"}, {Stop, "Stop"}, {Stop, "SubagentStop"}},
	"codex":   {{SessionStart, "SessionStart"}, {PromptSubmit, "UserPromptSubmit"}, {Stop, "Stop"}},
	"factory": {{SessionStart, "SessionStart"}, {PromptSubmit, "UserPromptSubmit"}, {Stop, "Stop"}, {Stop, "SubagentStop"}},
	"qwen":    {{SessionStart, "SessionStart"}, {PromptSubmit, "UserPromptSubmit"}, {Stop, "Stop"}},
	"gemini":  {{SessionStart, "SessionStart"}, {PromptSubmit, "BeforeAgent"}, {Stop, "AfterAgent"}},
}

// turnSpecs are the hook entries of host's lifecycle events in a grouped
// settings file: every source and agent (no matcher), with guard, named
// by name when the host shows names.
func turnSpecs(host string, cmd []string, guard ordered, name func(string) string) []hookSpec {
	var out []hookSpec
	for _, ev := range turnHooks[host] {
		out = append(out, hookSpec{event: ev.host, ours: ev.ours, cmdKey: "command",
			entry: group("", hookCommand(cmd, host, ev.ours), name(ev.ours), guard)})
	}
	return out
}

// TurnWired lists the host's own events init wires to tausik's lifecycle
// event ours, for a host with a grouped settings file.
func TurnWired(host, ours string) []string {
	var out []string
	for _, ev := range turnHooks[host] {
		if ev.ours == ours {
			out = append(out, ev.host)
		}
	}
	return out
}
