package report

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tausik/tausik/engine/config"

	"github.com/tausik/tausik/store"
)

// body is what the report reads of a decision's stored document (an
// engine decision or a task-state entry).
type body struct {
	Request struct {
		Bypass []string `json:"bypass"`
		Files  []string `json:"files"`
		Tool   *struct {
			Host    string   `json:"host"`
			Tool    string   `json:"tool"`
			Targets []string `json:"targets"`
		} `json:"tool"`
	} `json:"request"`
	Warnings  []string             `json:"warnings"`
	Tiers     []config.TierSetting `json:"tiers"`
	Change    string               `json:"change"`
	TaskState *store.TaskState     `json:"task_state"`
}

// tally walks the entries once, oldest first, and fills every section.
func (r *Report) tally(entries []store.Entry) error {
	t := newTallies()
	for _, e := range entries {
		var b body
		if err := json.Unmarshal(e.Body, &b); err != nil {
			return fmt.Errorf("report: decision %d (%s): body: %w", e.Seq, e.ID, err)
		}
		t.add(r, e, b)
	}
	r.Total = r.count(len(entries))
	r.Blocked = r.count(t.blocked, "--result", "blocked")
	r.Passed = r.count(len(entries)-t.blocked, "--result", "passed")
	r.buckets(entries)
	r.fillGates(t.gates)
	r.fillRequesters(t.requesters)
	for _, slug := range sortedKeys(t.tasks) {
		r.trail(slug, t.tasks[slug])
	}
	for _, k := range sortedKeys(t.notes) {
		r.Notes = append(r.Notes, *t.notes[k])
	}
	slices.SortStableFunc(r.Notes, func(a, b Note) int { return cmpBool(b.Refused, a.Refused) })
	for _, k := range sortedKeys(t.switched) {
		r.Switched = append(r.Switched, *t.switched[k])
	}
	return nil
}

// tallies are the running counts of one walk over the entries.
type tallies struct {
	blocked    int
	gates      map[string]*gateTally
	requesters map[string]*[2]int // requester → decisions, blocked
	tasks      map[string]*trailTally
	notes      map[string]*Note
	switched   map[string]*TierSwitch
	lastState  map[string]store.TaskState
}

func newTallies() *tallies {
	return &tallies{gates: map[string]*gateTally{}, requesters: map[string]*[2]int{}, tasks: map[string]*trailTally{},
		notes: map[string]*Note{}, switched: map[string]*TierSwitch{}, lastState: map[string]store.TaskState{}}
}

// add counts one entry into every tally and the report's event lists.
func (t *tallies) add(r *Report, e store.Entry, b body) {
	ev := Event{Seq: e.Seq, Time: stampOf(e.Time), ID: e.ID, Requester: e.Requester, Blocked: e.Blocked}
	if e.Blocked {
		t.blocked++
	}
	t.addGates(e)
	rq := t.requesters[e.Requester]
	if rq == nil {
		rq = &[2]int{}
		t.requesters[e.Requester] = rq
	}
	rq[0]++
	if e.Blocked {
		rq[1]++
	}
	if e.Task != "" {
		tt := t.tasks[e.Task]
		if tt == nil {
			tt = &trailTally{}
			t.tasks[e.Task] = tt
		}
		tt.add(e, b, ev, t.lastState)
	}
	if len(b.Request.Bypass) > 0 {
		w := ev
		w.Kind, w.Detail = "waiver", "waived "+strings.Join(b.Request.Bypass, ", ")+taskNote(e.Task)
		r.listAdd(&r.Waivers, "waivers", w)
	}
	t.addNotes(b, ev)
	if b.TaskState != nil {
		r.taskChange(e, b, ev, t.lastState)
	}
}

// addGates counts each gate's outcome and block in e.
func (t *tallies) addGates(e store.Entry) {
	for _, g := range e.Gates {
		gt := t.gates[g.Name]
		if gt == nil {
			gt = &gateTally{outcomes: map[store.Outcome]int{}}
			t.gates[g.Name] = gt
		}
		gt.outcomes[g.Outcome]++
		if g.Blocks {
			gt.blocks++
		}
	}
}

// addNotes keeps the first and last decision of each warning and of each
// gate a tier switched off.
func (t *tallies) addNotes(b body, ev Event) {
	for _, w := range b.Warnings {
		n := t.notes[w]
		if n == nil {
			n = &Note{Text: w, Refused: strings.Contains(w, "refused"), First: ev}
			t.notes[w] = n
		}
		n.Last = ev
	}
	for _, ts := range b.Tiers {
		if ts.Key != "enabled" || ts.Value != false {
			continue
		}
		k := ts.Gate + "\x00" + ts.Tier + "\x00" + ts.File
		s := t.switched[k]
		if s == nil {
			s = &TierSwitch{Gate: ts.Gate, Tier: ts.Tier, File: ts.File, Severity: ts.Severity, First: ev}
			t.switched[k] = s
		}
		s.Last = ev
	}
}

// fillGates writes the verdicts-by-gate table and the blocks by gate.
func (r *Report) fillGates(gates map[string]*gateTally) {
	for _, name := range sortedKeys(gates) {
		t := gates[name]
		row := GateRow{Name: name, Blocks: r.count(t.blocks, "--gate", name, "--result", "blocked")}
		for _, o := range r.Outcomes {
			row.Outcomes = append(row.Outcomes, r.count(t.outcomes[store.Outcome(o)], "--gate", name, "--outcome", o))
		}
		r.Gates = append(r.Gates, row)
		if t.blocks > 0 {
			r.ByGate = append(r.ByGate, KeyCount{Key: name, Blocked: row.Blocks,
				Total: r.count(sum(t.outcomes), "--gate", name)})
		}
	}
}

// fillRequesters writes the blocks by requester.
func (r *Report) fillRequesters(requesters map[string]*[2]int) {
	for _, req := range sortedKeys(requesters) {
		if n := requesters[req]; n[1] > 0 {
			r.ByRequester = append(r.ByRequester, KeyCount{Key: req, Blocked: r.count(n[1], "--requester", req, "--result", "blocked"),
				Total: r.count(n[0], "--requester", req)})
		}
	}
}

type gateTally struct {
	outcomes map[store.Outcome]int
	blocks   int
}

func sum(m map[store.Outcome]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

func taskNote(task string) string {
	if task == "" {
		return ""
	}
	return " (task " + task + ")"
}

// listAdd appends ev to a bounded list, counting what does not fit.
func (r *Report) listAdd(list *[]Event, name string, ev Event) {
	if len(*list) >= maxList {
		r.Omitted[name]++
		return
	}
	*list = append(*list, ev)
}

// taskChange records a scope or tier change of a task-state entry against
// the task's previous state.
func (r *Report) taskChange(e store.Entry, b body, ev Event, last map[string]store.TaskState) {
	s := *b.TaskState
	prev, seen := last[e.Task]
	last[e.Task] = s
	if !seen || b.Change != store.ChangeUpdate {
		return
	}
	var what []string
	if scopeText(prev.Scope) != scopeText(s.Scope) {
		what = append(what, "scope "+scopeText(prev.Scope)+" → "+scopeText(s.Scope))
	}
	if prev.Tier != s.Tier {
		what = append(what, "tier "+orNone(prev.Tier)+" → "+orNone(s.Tier))
	}
	if len(what) == 0 {
		return
	}
	ev.Kind, ev.Detail = "task "+e.Task, strings.Join(what, "; ")
	r.listAdd(&r.TaskChanges, "task changes", ev)
}

func scopeText(s *[]string) string {
	if s == nil {
		return "(none declared)"
	}
	if len(*s) == 0 {
		return "[]"
	}
	return "[" + strings.Join(*s, ", ") + "]"
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// buckets splits the range into days, or hours when the decisions span at
// most two days, and counts each bucket's passed and blocked decisions.
func (r *Report) buckets(entries []store.Entry) {
	if len(entries) == 0 {
		return
	}
	first, last := entries[0].Time, entries[len(entries)-1].Time
	step, layout := 24*time.Hour, "2006-01-02"
	if last.Sub(first) <= 48*time.Hour {
		step, layout, r.Hourly = time.Hour, "01-02 15h", true
	}
	start := first.UTC().Truncate(step)
	var bs []Bucket
	i := 0
	for t := start; !t.After(last); t = t.Add(step) {
		b := Bucket{Label: t.Format(layout), Start: t, End: t.Add(step)}
		for ; i < len(entries) && entries[i].Time.Before(b.End); i++ {
			if entries[i].Blocked {
				b.blocked++
			} else {
				b.passedN++
			}
		}
		bs = append(bs, b)
	}
	for k := range bs {
		b := &bs[k]
		lo, hi := b.Start, b.End
		if !r.since.IsZero() && r.since.After(lo) {
			lo = r.since
		}
		if !r.until.IsZero() && r.until.Before(hi) {
			hi = r.until
		}
		between := []string{"--between", timeArg(lo) + "," + timeArg(hi)}
		b.Total = r.countAt(b.passedN+b.blocked, between)
		b.Passed = r.countAt(b.passedN, between, "--result", "passed")
		b.Blocked = r.countAt(b.blocked, between, "--result", "blocked")
	}
	r.Buckets = bs
}

// countAt is count with the range replaced by a bucket's.
func (r *Report) countAt(n int, between []string, extra ...string) Count {
	return Count{N: n, Q: r.query(append(append([]string{"log", "list"}, between...), extra...))}
}
