package report

import (
	"strings"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/store"
)

// trailTally gathers one task's trail while the entries are walked.
type trailTally struct {
	total, blocked, refused int
	events                  []Event
	omitted                 int
	status, scope, evidence string
	verifyID, verifyState   string
}

// add records e, an entry about the task, on its trail.
func (t *trailTally) add(e store.Entry, b body, ev Event, last map[string]store.TaskState) {
	t.total++
	if e.Blocked {
		t.blocked++
	}
	switch {
	case b.TaskState != nil:
		s := b.TaskState
		t.status, t.scope = s.Status, scopeText(s.Scope)
		ev.Kind = b.Change
		switch b.Change {
		case store.ChangeStart, store.ChangeRecorded:
			ev.Detail = "scope " + scopeText(s.Scope) + ", files " + listText(s.Files)
			if s.Tier != "" {
				ev.Detail += ", tier " + s.Tier
			}
		case store.ChangeUpdate:
			ev.Detail = updateText(last[e.Task], *s)
		case store.ChangeDone:
			t.evidence = "files " + listText(s.Files)
			if t.verifyID != "" {
				t.evidence += "; last verify " + t.verifyState + " (" + t.verifyID + ")"
			} else {
				t.evidence += "; no verify run in this range"
			}
			ev.Detail = t.evidence
		}
	case e.Trigger == engine.TriggerPreWrite:
		if !e.Blocked {
			return // allowed writes are counted, not listed
		}
		t.refused++
		ev.Kind, ev.Detail = "refused write", toolText(b)+" — blocked by "+blockers(e.Gates)
	case e.Trigger == engine.TriggerVerify:
		t.verifyID, t.verifyState = e.ID, result(e.Blocked)
		ev.Kind, ev.Detail = "verify", result(e.Blocked)+gateNote(e)
	case e.Trigger == engine.TriggerTaskDone:
		ev.Kind, ev.Detail = "done check", result(e.Blocked)+gateNote(e)
	case e.Blocked:
		ev.Kind, ev.Detail = e.Trigger, "blocked by "+blockers(e.Gates)
	default:
		return
	}
	if len(t.events) >= maxTrail {
		t.omitted++
		return
	}
	t.events = append(t.events, ev)
}

// trail turns a task's tally into the report's trail.
func (r *Report) trail(slug string, t *trailTally) {
	tr := TaskTrail{Slug: slug, Events: t.events, Omitted: t.omitted, FinalStatus: t.status, FinalScope: t.scope,
		DoneEvidence: t.evidence, LastVerifyID: t.verifyID, LastVerifyState: t.verifyState,
		Total:         r.count(t.total, "--task", slug),
		Blocked:       r.count(t.blocked, "--task", slug, "--result", "blocked"),
		RefusedWrites: r.count(t.refused, "--task", slug, "--trigger", engine.TriggerPreWrite, "--result", "blocked")}
	r.Tasks = append(r.Tasks, tr)
	if t.blocked > 0 {
		r.ByTask = append(r.ByTask, KeyCount{Key: slug, Blocked: tr.Blocked, Total: tr.Total})
	}
}

func result(blocked bool) string {
	if blocked {
		return "blocked"
	}
	return "passed"
}

func gateNote(e store.Entry) string {
	if e.Blocked {
		return " by " + blockers(e.Gates)
	}
	return ""
}

// blockers names the gates whose verdict blocked.
func blockers(gates []store.GateVerdict) string {
	var out []string
	for _, g := range gates {
		if g.Blocks {
			out = append(out, g.Name+" ("+string(g.Outcome)+")")
		}
	}
	if len(out) == 0 {
		return "no gate"
	}
	return strings.Join(out, ", ")
}

func toolText(b body) string {
	tool := b.Request.Tool
	if tool == nil {
		return "files " + listText(b.Request.Files)
	}
	return tool.Host + " " + tool.Tool + " → " + listText(tool.Targets)
}

func listText(l []string) string {
	if len(l) == 0 {
		return "[]"
	}
	return "[" + strings.Join(l, ", ") + "]"
}

// updateText says what an update changed against the task's prior state.
func updateText(prev, s store.TaskState) string {
	var what []string
	if scopeText(prev.Scope) != scopeText(s.Scope) {
		what = append(what, "scope "+scopeText(prev.Scope)+" → "+scopeText(s.Scope))
	}
	if listText(prev.Files) != listText(s.Files) {
		what = append(what, "files "+listText(s.Files))
	}
	if prev.Tier != s.Tier {
		what = append(what, "tier "+orNone(prev.Tier)+" → "+orNone(s.Tier))
	}
	if len(what) == 0 {
		return "declarations updated"
	}
	return strings.Join(what, "; ")
}
