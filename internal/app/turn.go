package app

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/engine/toolcall"
	"github.com/tausik/tausik/store"
)

// DefaultStopBound is how many stops of one session and task the guard
// refuses in a row before it lets the next one through with a note.
const DefaultStopBound = 3

// StopVerdict is what JudgeStop decided: Continue makes the host keep the
// agent working with Reason as its next instruction. Decisions are the
// logged task-done evaluations, one per active task.
type StopVerdict struct {
	Continue  bool
	Reason    string
	Decisions []*engine.Decision
}

// JudgeStop judges an agent's stop: each active task's task-done gates are
// evaluated (a logged decision per task, recording rec) and a task they
// would block makes the agent continue with the reasons. With no active
// task there is nothing to judge and the stop passes. The loop is bounded:
// once bound stops of this host, session and task were refused in a row,
// as the log shows, the next stop passes and its decision carries a note
// saying so. The host's own loop signals (stop_hook_active, loop_count)
// are recorded beside the count but do not replace it: a host that
// misreports them cannot hold the agent longer or let it go sooner.
// bound < 1 is DefaultStopBound.
func JudgeStop(ctx context.Context, eng *engine.Engine, rec toolcall.Turn, bound int) (StopVerdict, error) {
	if bound < 1 {
		bound = DefaultStopBound
	}
	st := eng.Store()
	if st == nil {
		return StopVerdict{}, fmt.Errorf("%w: no store", diag.ErrStore)
	}
	active, err := st.ActiveTasks(ctx)
	if err != nil {
		return StopVerdict{}, fmt.Errorf("%w: active tasks: %v", diag.ErrStore, err)
	}
	var out StopVerdict
	var reasons []string
	for _, t := range active {
		r := rec
		r.Event, r.Bound = toolcall.EventStop, bound
		if r.Refused, err = refusedStops(ctx, st, t.Slug, rec, bound); err != nil {
			return out, err
		}
		over := r.Refused >= bound
		if over {
			r.Note = fmt.Sprintf("%d stops in a row were refused (the bound is %d): this one passes whatever the task-done gates say", r.Refused, bound)
		}
		d, err := eng.Evaluate(ctx, engine.Request{
			Trigger: engine.TriggerTaskDone, Task: t.Slug, Files: t.Files,
			ChangedSince: t.StartedAt.UTC().Format(time.RFC3339Nano), Requester: "hook:" + rec.Host, Turn: &r,
		})
		if err != nil {
			return out, err
		}
		out.Decisions = append(out.Decisions, d)
		if d.Blocked && !over {
			reasons = append(reasons, fmt.Sprintf("Task %s would not close: its task-done gates block (refused stop %d of %d; decision %s):\n%s",
				t.Slug, r.Refused+1, bound, d.ID, blockingLines(d)))
		}
	}
	if len(reasons) > 0 {
		out.Continue = true
		out.Reason = strings.Join(reasons, "\n") + "\nFix these, then finish; or tell the person what blocks and why."
	}
	return out, nil
}

// maxStopScan bounds how far back the log is read for one task's stops.
const maxStopScan = 256

// refusedStops counts the stops of rec's host and session (its main agent
// or its sub-agents, apart) for task slug
// that the guard refused in a row, newest first, up to the last one that
// passed (because the gates were green or the bound let it through).
func refusedStops(ctx context.Context, st *store.Store, slug string, rec toolcall.Turn, bound int) (int, error) {
	es, err := st.ListDecisions(ctx, store.Filter{Task: slug, Trigger: engine.TriggerTaskDone, Requester: "hook:" + rec.Host, Tail: maxStopScan})
	if err != nil {
		return 0, fmt.Errorf("%w: read the stops of task %s: %v", diag.ErrStore, slug, err)
	}
	n := 0
	for i := len(es) - 1; i >= 0 && n < bound; i-- {
		var body struct {
			Request struct {
				Turn *toolcall.Turn `json:"turn"`
			} `json:"request"`
		}
		if err := json.Unmarshal(es[i].Body, &body); err != nil {
			return 0, fmt.Errorf("%w: decision %s: %v", diag.ErrStore, es[i].ID, err)
		}
		t := body.Request.Turn
		if t == nil || t.Event != toolcall.EventStop || t.Session != rec.Session || t.Subagent != rec.Subagent {
			continue
		}
		if !es[i].Blocked || t.Note != "" {
			break
		}
		n++
	}
	return n, nil
}

// blockingLines lists, sorted, each blocking gate's violations and
// failures, one line each.
func blockingLines(d *engine.Decision) string {
	var lines []string
	for i := range d.Gates {
		v := &d.Gates[i]
		if !v.Blocks {
			continue
		}
		for _, vi := range v.Judged() {
			lines = append(lines, "- "+v.Name+": "+violationText(vi))
		}
		for _, r := range v.Reasons {
			first, _, _ := strings.Cut(r.Msg, "\n")
			lines = append(lines, fmt.Sprintf("- %s could not run (%s): %s", v.Name, r.Code, first))
		}
	}
	slices.Sort(lines)
	lines = slices.Compact(lines)
	return strings.Join(lines, "\n")
}

func violationText(v policy.Violation) string {
	msg, _, _ := strings.Cut(v.Msg, "\n")
	switch {
	case v.File == "" || strings.HasPrefix(msg, v.File):
		return msg
	case v.Line > 0:
		return fmt.Sprintf("%s:%d: %s", v.File, v.Line, msg)
	}
	return v.File + ": " + msg
}

// TurnContext is the text handed to the model at a session start or a
// prompt: each active task (sorted by slug) with its goal, declared scope
// and files, and what its task-done gates would block now (each a logged
// decision recording rec). The same state gives the same bytes — no time,
// no decision id, every list sorted — so a host's prompt cache holds
// across turns. With no active task it says so.
func TurnContext(ctx context.Context, eng *engine.Engine, rec toolcall.Turn) (string, error) {
	st := eng.Store()
	if st == nil {
		return "", fmt.Errorf("%w: no store", diag.ErrStore)
	}
	active, err := st.ActiveTasks(ctx)
	if err != nil {
		return "", fmt.Errorf("%w: active tasks: %v", diag.ErrStore, err)
	}
	if len(active) == 0 {
		return "tausik: no task is active.\n", nil
	}
	slices.SortFunc(active, func(a, b store.Task) int { return strings.Compare(a.Slug, b.Slug) })
	var b strings.Builder
	for _, t := range active {
		fmt.Fprintf(&b, "tausik: active task %s", t.Slug)
		if t.Goal != "" {
			fmt.Fprintf(&b, " — %s", t.Goal)
		}
		b.WriteString("\n")
		if t.Scope == nil {
			b.WriteString("Scope: none declared (the whole project).\n")
		} else {
			fmt.Fprintf(&b, "Scope: %s\n", strings.Join(sortedCopy(t.Scope), ", "))
		}
		if len(t.Files) > 0 {
			fmt.Fprintf(&b, "Files: %s\n", strings.Join(sortedCopy(t.Files), ", "))
		}
		r := rec
		d, err := eng.Evaluate(ctx, engine.Request{
			Trigger: engine.TriggerTaskDone, Task: t.Slug, Files: t.Files,
			ChangedSince: t.StartedAt.UTC().Format(time.RFC3339Nano), Requester: "hook:" + rec.Host, Turn: &r,
		})
		switch {
		case err != nil:
			return "", err
		case d.Blocked:
			fmt.Fprintf(&b, "Would block task done now:\n%s\n", blockingLines(d))
		default:
			b.WriteString("Would block task done now: nothing.\n")
		}
	}
	return b.String(), nil
}

func sortedCopy(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return out
}
