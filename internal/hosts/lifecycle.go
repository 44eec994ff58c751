package hosts

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/toolcall"
)

// TurnAnswer is what the workflow behind a lifecycle hook decided: for a
// stop, whether the agent must continue and why; for a session start or a
// prompt, the context to hand the model.
type TurnAnswer struct {
	Continue bool
	Reason   string
	Context  string
}

// Turner judges one lifecycle event in the project's engine. The adapter
// only reads the host's payload into rec and renders the answer; what
// blocks a stop and what the context says are the caller's (internal/app),
// which internal/hosts may not import.
type Turner func(ctx context.Context, e *engine.Engine, rec toolcall.Turn) (TurnAnswer, error)

// lifecycle is one host's protocol for the events of a turn.
type lifecycle struct {
	// events maps tausik's event name to the host's (the first is the
	// default when the payload names none); an event the host lacks is
	// absent.
	events map[string][]string
	// parse reads the payload's session, cwd, project and loop signals.
	parse func(m map[string]any, rec *toolcall.Turn, at *Where)
	// cont is the JSON that makes the host continue after a stop, with
	// reason as the model's next instruction.
	cont func(reason string) any
	// pass is written when a stop passes (nil: nothing).
	pass any
	// ended, when set, reports a stop that the person or an error ended
	// (Cursor's status "aborted" or "error"): it passes unjudged, since
	// continuing would overrule the person.
	ended func(m map[string]any) bool
	// context is the JSON that hands text to the model at hostEvent.
	context func(hostEvent, text string) any
}

// claudeLifecycle is Claude Code's turn protocol, which Codex, Factory and
// Qwen Code copied: Stop and SubagentStop with stop_hook_active, continued
// by {"decision":"block","reason"}; SessionStart and UserPromptSubmit
// answered with hookSpecificOutput.additionalContext.
var claudeLifecycle = &lifecycle{
	events: map[string][]string{
		toolcall.EventStop:         {"Stop", "SubagentStop"},
		toolcall.EventSessionStart: {"SessionStart"},
		toolcall.EventPromptSubmit: {"UserPromptSubmit"},
	},
	parse: parseClaudeTurn,
	cont: func(reason string) any {
		return map[string]any{"decision": "block", "reason": reason}
	},
	context: hookSpecificContext,
}

// geminiLifecycle: Gemini CLI's AfterAgent refuses the agent's answer
// with {"decision":"deny","reason"} and runs the turn again with the reason
// as its prompt; SessionStart and BeforeAgent take additionalContext.
var geminiLifecycle = &lifecycle{
	events: map[string][]string{
		toolcall.EventStop:         {"AfterAgent"},
		toolcall.EventSessionStart: {"SessionStart"},
		toolcall.EventPromptSubmit: {"BeforeAgent"},
	},
	parse: parseClaudeTurn,
	cont: func(reason string) any {
		return map[string]any{"decision": "deny", "reason": reason}
	},
	context: hookSpecificContext,
}

// cursorLifecycle: Cursor's stop hook sends loop_count and continues the
// agent with followup_message, submitted as the next user message;
// sessionStart takes additional_context. beforeSubmitPrompt can only let a
// prompt through or not, so Cursor gets no context per prompt.
var cursorLifecycle = &lifecycle{
	events: map[string][]string{
		toolcall.EventStop:         {"stop"},
		toolcall.EventSessionStart: {"sessionStart"},
	},
	parse: func(m map[string]any, rec *toolcall.Turn, at *Where) {
		rec.Session = str(m, "conversation_id")
		if n, ok := m["loop_count"].(float64); ok && n > 0 {
			rec.HostLoops = int(n)
		}
		at.CWD = str(m, "cwd")
		if roots, ok := m["workspace_roots"].([]any); ok && len(roots) > 0 {
			at.Project = workspaceRoot(roots, at.CWD)
			if at.CWD == "" {
				at.CWD, _ = roots[0].(string)
			}
		}
	},
	ended: func(m map[string]any) bool {
		st, ok := m["status"].(string)
		return ok && st != "completed"
	},
	cont:    func(reason string) any { return map[string]any{"followup_message": reason} },
	pass:    map[string]any{},
	context: func(_, text string) any { return map[string]any{"additional_context": text} },
}

// clineLifecycle: Cline's TaskStart and UserPromptSubmit hooks put
// contextModification into the model's context; Cline cannot be made to
// continue after a task completes.
var clineLifecycle = &lifecycle{
	events: map[string][]string{
		toolcall.EventSessionStart: {"TaskStart"},
		toolcall.EventPromptSubmit: {"UserPromptSubmit"},
	},
	parse: func(m map[string]any, rec *toolcall.Turn, at *Where) {
		rec.Session = str(m, "taskId")
		if roots, ok := m["workspaceRoots"].([]any); ok && len(roots) > 0 {
			at.CWD, _ = roots[0].(string)
			at.Project = at.CWD
		}
	},
	context: func(_, text string) any {
		return map[string]any{"cancel": false, "errorMessage": "", "contextModification": text}
	},
}

// mainStopOnly is Claude's protocol for a host whose sub-agents have no
// stop event of their own (Codex, Qwen Code).
var mainStopOnly = func() *lifecycle {
	l := *claudeLifecycle
	l.events = map[string][]string{
		toolcall.EventStop:         {"Stop"},
		toolcall.EventSessionStart: {"SessionStart"},
		toolcall.EventPromptSubmit: {"UserPromptSubmit"},
	}
	return &l
}()

// lifecycles lists the hosts that have turn events.
var lifecycles = map[string]*lifecycle{
	"claude": claudeLifecycle, "codex": mainStopOnly, "factory": claudeLifecycle, "qwen": mainStopOnly,
	"gemini": geminiLifecycle, "cursor": cursorLifecycle, "cline": clineLifecycle,
}

func parseClaudeTurn(m map[string]any, rec *toolcall.Turn, at *Where) {
	rec.Session = str(m, "session_id")
	rec.StopHookActive, _ = m["stop_hook_active"].(bool)
	rec.Subagent = str(m, "agent_id") != "" || rec.HostEvent == "SubagentStop"
	at.CWD = str(m, "cwd")
}

func hookSpecificContext(hostEvent, text string) any {
	return map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": hostEvent, "additionalContext": text}}
}

// TurnEvents lists the lifecycle events host h answers, in a fixed order.
func TurnEvents(h *Host) []string {
	l := lifecycles[h.Name]
	var out []string
	for _, ev := range []string{toolcall.EventStop, toolcall.EventSessionStart, toolcall.EventPromptSubmit} {
		if l != nil && len(l.events[ev]) > 0 {
			out = append(out, ev)
		}
	}
	return out
}

// HostEvents are the host's own names for tausik's lifecycle event ev
// (nil when the host has none): what `tausik init` wires.
func HostEvents(h *Host, ev string) []string {
	if l := lifecycles[h.Name]; l != nil {
		return append([]string(nil), l.events[ev]...)
	}
	return nil
}

// stopPrefix starts every instruction to continue after a stop.
const stopPrefix = "tausik: the active task is not done; do not stop yet. "

// RunTurn answers one lifecycle event (toolcall.EventStop,
// EventSessionStart or EventPromptSubmit) of host h, judged by judge, in
// the host's protocol, bounded by d. A stop the judge refuses makes the
// host continue with the reasons; one it lets through gets the host's
// pass answer. A context event hands the judge's text to the model.
//
// Errors: a payload that is not a JSON object is reported on stderr with
// exit 1, which hosts show without blocking (a stop then passes: nothing
// in it says whether the host is already looping on tausik's answers). A
// judge that fails, or does not answer within d, on a stop the host has
// not already continued makes it continue once with the error; after
// that the stop passes with the error on stderr, so a broken store cannot
// hold an agent forever. A failed context is handed to the model as text.
func RunTurn(ctx context.Context, h *Host, event string, env Env, judge Turner, d time.Duration) int {
	l := lifecycles[h.Name]
	if l == nil || len(l.events[event]) == 0 {
		fmt.Fprintf(env.Stderr, "tausik: %s has no %s hook\n", h.Title, event)
		return 2
	}
	b, err := io.ReadAll(io.LimitReader(env.Stdin, maxPayload+1))
	if err == nil && len(b) > maxPayload {
		err = fmt.Errorf("payload over %d bytes", maxPayload)
	}
	var m map[string]any
	if err == nil {
		m, err = object(b)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "tausik: %s: %v\n", event, err)
		return 1
	}
	rec := toolcall.Turn{Host: h.Name, Event: event, HostEvent: str(m, "hook_event_name")}
	if rec.HostEvent == "" {
		rec.HostEvent = str(m, "hookName") // Cline
	}
	if rec.HostEvent == "" {
		rec.HostEvent = l.events[event][0]
	}
	var at Where
	l.parse(m, &rec, &at)
	if at.CWD == "" {
		at.CWD = env.WD
	}
	at = where(h, call{project: at.Project}, at.CWD, env)
	if event == toolcall.EventStop && l.ended != nil && l.ended(m) {
		if l.pass != nil {
			_ = writeJSON(env, l.pass)
		}
		return 0
	}

	ans, err := judgeWithin(ctx, d, func(ctx context.Context) (TurnAnswer, error) {
		e, err := env.Open(ctx, at)
		if err != nil {
			return TurnAnswer{}, err
		}
		defer e.Close()
		return judge(ctx, e, rec)
	})
	if event != toolcall.EventStop {
		if err != nil {
			ans.Context = fmt.Sprintf("tausik could not read the task state: %v", err)
		}
		if ans.Context == "" {
			return 0
		}
		if werr := writeJSON(env, l.context(rec.HostEvent, ans.Context)); werr != nil {
			return 1
		}
		return 0
	}
	if err != nil {
		if rec.StopHookActive || rec.HostLoops > 0 {
			fmt.Fprintf(env.Stderr, "tausik: the stop could not be judged again, it passes: %v\n", err)
			return 1
		}
		ans = TurnAnswer{Continue: true, Reason: fmt.Sprintf("the stop could not be judged: %v", err)}
	}
	if !ans.Continue {
		if l.pass != nil {
			_ = writeJSON(env, l.pass) // an unheard pass is still a pass
		}
		return 0
	}
	reason := stopPrefix + ans.Reason
	fmt.Fprintln(env.Stderr, reason)
	if werr := writeJSON(env, l.cont(reason)); werr != nil {
		return 2 // Claude-shaped hosts read exit 2 on a stop as "continue"
	}
	return 0
}

// judgeWithin runs f, giving up after d with an error.
func judgeWithin(ctx context.Context, d time.Duration, f func(context.Context) (TurnAnswer, error)) (TurnAnswer, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	type result struct {
		a   TurnAnswer
		err error
	}
	done := make(chan result, 1)
	go func() {
		a, err := f(ctx)
		done <- result{a, err}
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.a, r.err
	case <-timer.C:
		return TurnAnswer{}, fmt.Errorf("no answer within %s", d)
	}
}

// postEvents names, per host that takes context after a tool call, its
// post-tool event (Cursor's postToolUse output is not documented to).
var postEvents = map[string]string{
	"claude": "PostToolUse", "codex": "PostToolUse", "factory": "PostToolUse", "qwen": "PostToolUse",
	"gemini": "AfterTool", "cline": "PostToolUse",
}

// startAfterWrite begins env.AfterWrite's warnings on the files write call
// c wrote, where the host takes context after a call; nil when there is
// nothing to find.
func startAfterWrite(ctx context.Context, h *Host, e *engine.Engine, c call, cwd string, env Env) func(context.Context) (string, error) {
	if _, ok := postEvents[h.Name]; !ok || c.kind != toolcall.KindWrite || env.AfterWrite == nil || len(c.paths) == 0 {
		return nil
	}
	files := make([]string, 0, len(c.paths))
	for _, p := range c.paths {
		if !filepath.IsAbs(p) && cwd != "" {
			p = filepath.Join(cwd, p)
		}
		files = append(files, p)
	}
	return env.AfterWrite(ctx, e, c.session, files)
}

// afterWrite hands the model the warnings findings gives, and reports
// whether it answered. Warnings never block: an error finding them is
// reported on stderr and the call is answered as usual.
func afterWrite(ctx context.Context, h *Host, findings func(context.Context) (string, error), env Env) bool {
	text, err := findings(ctx)
	if err != nil {
		fmt.Fprintf(env.Stderr, "tausik: post-tool-use: warnings not read: %v\n", err)
		return false
	}
	if text == "" {
		return false
	}
	return writeJSON(env, lifecycles[h.Name].context(postEvents[h.Name], text)) == nil
}
