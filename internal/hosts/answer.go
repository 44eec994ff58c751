package hosts

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/engine/toolcall"
)

// answer is how a host reads a hook's verdict.
type answer struct {
	// exit2: the host reads exit 2 as a refusal with the reason on stderr
	// (Claude Code and the hosts that copied its protocol). Otherwise the
	// verdict is JSON on stdout with exit 0.
	exit2 bool
	// allowJSON and denyJSON give the JSON answers of a JSON host; allowJSON
	// is also written after a post event (nil: nothing is written).
	allowJSON func(Phase) any
	denyJSON  func(reason string) any
	// postBlockJSON is the JSON a host reads after a call as "this went
	// wrong, tell the model": written on stdout with exit 0. nil: the host
	// has no such answer, and the reason goes to stderr with exit 2.
	postBlockJSON func(reason string) any
	// askJSON is the JSON a host reads before a call as "show this call to
	// the person, who decides": written on stdout with exit 0. nil: the
	// host has no permission prompt, and a call that asks is refused.
	askJSON func(reason string) any
}

// denyPrefix starts every refusal, whatever the host.
const denyPrefix = "tausik blocked this tool call: "

func (a answer) allow(p Phase, env Env) int {
	if a.allowJSON != nil {
		if v := a.allowJSON(p); v != nil {
			_ = writeJSON(env, v) // an allow that is not heard leaves the host's default, never a wider one
		}
	}
	return 0
}

func (a answer) deny(reason string, env Env) int {
	reason = denyPrefix + reason
	if a.exit2 {
		fmt.Fprintln(env.Stderr, reason)
		return 2
	}
	err := writeJSON(env, a.denyJSON(reason))
	// The reason on stderr too: a host log or a human running the hook by
	// hand sees it without decoding JSON.
	fmt.Fprintln(env.Stderr, reason)
	if err != nil {
		// The host would read exit 0 with no JSON as "no objection": a
		// refusal that cannot be written exits 2, the hook exit code the
		// hosts read as a block, so it fails closed.
		return 2
	}
	return 0
}

// askPrefix starts every question put to a person.
const askPrefix = "tausik asks a person to confirm this tool call: "

// ask hands the call to the person through the host's permission prompt,
// or refuses it where the host has none: nobody can be asked, so the
// verdict blocks.
func (a answer) ask(reason string, env Env) int {
	if a.askJSON == nil {
		return a.deny(reason, env)
	}
	reason = askPrefix + reason
	err := writeJSON(env, a.askJSON(reason))
	fmt.Fprintln(env.Stderr, reason)
	if err != nil {
		return 2 // unheard, the question would read as "no objection": refuse
	}
	return 0
}

// postBlockPrefix starts every report of the backstop after a call.
const postBlockPrefix = "tausik found changes outside the task's scope after this tool call: "

// postBlock tells the host, after a call ran, that the backstop refused
// what it changed, so the model reverts it.
func (a answer) postBlock(reason string, env Env) int {
	reason = postBlockPrefix + reason
	if a.postBlockJSON == nil {
		fmt.Fprintln(env.Stderr, reason)
		return 2
	}
	err := writeJSON(env, a.postBlockJSON(reason))
	fmt.Fprintln(env.Stderr, reason)
	if err != nil {
		return 2
	}
	return 0
}

func writeJSON(env Env, v any) error {
	b, _ := json.Marshal(v) // maps of strings and bools: never fails
	_, err := fmt.Fprintf(env.Stdout, "%s\n", b)
	return err
}

// exit2Answer is Claude Code's protocol: exit 0 allows, exit 2 refuses with
// the reason on stderr, which the model reads.
var exit2Answer = answer{exit2: true}

// claudeAnswer is exit2Answer plus the PostToolUse answer Claude Code and
// the hosts that copied it (Qwen, Gemini's AfterTool, Factory, Codex) read
// after a call: {"decision": "block", "reason"} on stdout with exit 0
// feeds the reason to the model.
var claudeAnswer = answer{exit2: true, postBlockJSON: func(reason string) any {
	return map[string]any{"decision": "block", "reason": reason}
}}

// claudeAsk is Claude Code's PreToolUse answer that shows the call to the
// person in its permission prompt, with the reason.
func claudeAsk(reason string) any {
	return map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": reason}}
}

// withAsk gives h a permission prompt answered by ask; the hosts that
// copied Claude Code's payload do not all share its prompt.
func withAsk(h *Host, ask func(reason string) any) *Host {
	h.answer.askJSON = ask
	return h
}

// reason says why d refused c: the call, then each blocking gate's
// violations or failure, then the decision to look up.
func reason(c toolcall.Call, d *engine.Decision) string {
	// The call as the decision records it: secret_scan's findings are masked
	// there, and the answer must not hand them back to the agent either.
	if r := d.Request.Tool; r != nil && c.Command != "(command withheld)" {
		c.Command, c.Writes = r.Command, r.Targets
	}
	var msg strings.Builder
	what := strings.Join(c.Writes, ", ")
	if c.Kind == toolcall.KindShell || (c.Kind == toolcall.KindWrite && len(c.Writes) == 0) {
		cmd, _, _ := strings.Cut(c.Command, "\n")
		if len(cmd) > 120 {
			// Cut on a rune boundary: half a rune is invalid UTF-8, which
			// a JSON host gets as U+FFFD.
			cut := 120
			for cut > 0 && !utf8.RuneStart(cmd[cut]) {
				cut--
			}
			cmd = cmd[:cut] + "…"
		}
		if what != "" {
			cmd += " → " + what
		}
		what = cmd
	}
	fmt.Fprintf(&msg, "%s %s\n", c.Tool, what)
	budget := maxReasonLines
	for _, v := range d.Gates {
		if !v.Blocks {
			continue
		}
		judged := v.Judged() // not those elsewhere or baselined
		// Every blocking gate names at least its first finding.
		shown := min(len(judged), max(budget, 1))
		for _, vi := range judged[:shown] {
			fmt.Fprintf(&msg, "- %s: %s\n", v.Name, violationLine(vi))
		}
		budget -= shown
		if more := len(judged) - shown; more > 0 {
			fmt.Fprintf(&msg, "- %s: and %d more, all in the decision\n", v.Name, more)
		}
		for _, r := range v.Reasons {
			first, _, _ := strings.Cut(r.Msg, "\n")
			fmt.Fprintf(&msg, "- %s could not run (%s): %s\n", v.Name, r.Code, first)
		}
	}
	fmt.Fprintf(&msg, "(decision %s)", d.ID)
	return msg.String()
}

// maxReasonLines bounds the findings a refusal lists: a tree backstop that
// finds thousands of files (a generator run outside the scope) would fill
// the model's context with them; the decision, which the message names,
// holds them all. Each blocking gate still names its first finding, and
// why a gate could not run is always said.
const maxReasonLines = 40

func violationLine(v policy.Violation) string {
	if v.File == "" || strings.HasPrefix(v.Msg, v.File) {
		return v.Msg
	}
	if v.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", v.File, v.Line, v.Msg)
	}
	return v.File + ": " + v.Msg
}
