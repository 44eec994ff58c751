// Package report is the audit report: one page (HTML, or the same content in Markdown) that
// answers at a glance what an audit asks of the decision log — does it
// verify against its checkpoints, what was blocked and by which gates, which
// tasks closed on what evidence, what was waived, which weakenings were
// refused, which scopes were widened, which gates a tier switched off. Every
// count is tied to the `tausik log list` command that returns exactly those
// decisions (the page's Queries section), and the page is a function of the
// log and the request alone: the same log and flags give the same bytes.
package report

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/tausik/tausik/store"
	"github.com/tausik/tausik/store/merkle"
)

// Request is what a report covers, and the verification of the log it
// shows.
type Request struct {
	// Since and Until bound the decisions reported (zero: unbounded).
	Since, Until time.Time
	// Verify is the log checked as `log verify` checks it, against
	// Checkpoints checkpoints; VerifyArgs are the flags that name them,
	// for the Queries section.
	Verify      Verification
	Checkpoints int
	VerifyArgs  []string
	// Generated, when not zero, is printed as the report's time: the page
	// is then no longer the same bytes for the same log.
	Generated time.Time
}

// Verification is what `log verify` found: the log on its own, then each
// checkpoint.
type Verification struct {
	Log     store.LogReport
	Anchors []merkle.AnchorResult
	// Pinned is true when checkpoint signatures were checked against
	// trusted keys.
	Pinned bool
	// Covered is the size of the largest checkpoint the log extends.
	Covered int64
}

// Count is a number in the report and the query that reproduces it.
type Count struct {
	N int
	Q string // the query's anchor ("q7"); "" when no query reproduces it
}

// Query is a `tausik log list` command line in the Queries section.
type Query struct {
	ID   string
	Args []string // after "tausik"
	Line string   // the shell-quoted command line
}

// Bucket is one bar of the decisions-over-time chart.
type Bucket struct {
	Label            string
	Start, End       time.Time
	Total, Passed    Count
	Blocked          Count
	passedN, blocked int
}

// GateRow counts one gate's verdicts by outcome and its blocking verdicts.
type GateRow struct {
	Name     string
	Outcomes []Count // in the order of Outcomes
	Blocks   Count
}

// KeyCount is one row of a blocks-by table.
type KeyCount struct {
	Key            string
	Blocked, Total Count
}

// Event is one line of a task's trail or of a list of decisions.
type Event struct {
	Seq       int64
	Time      string
	ID        string
	Kind      string // start, update, refused write, verify, done check, done, abandon, …
	Requester string
	Blocked   bool
	Detail    string
}

// TaskTrail is what the log says about one task.
type TaskTrail struct {
	Slug            string
	Total, Blocked  Count
	RefusedWrites   Count
	Events          []Event
	Omitted         int // events beyond maxTrail not listed
	FinalStatus     string
	FinalScope      string
	DoneEvidence    string
	LastVerifyID    string
	LastVerifyState string
}

// TierSwitch is a gate a tier switched off, as decisions recorded it.
type TierSwitch struct {
	Gate, Tier, File, Severity string
	First, Last                Event
}

// Note is a warning the decisions carried (refused weakenings among them).
type Note struct {
	Text        string
	Refused     bool
	First, Last Event
}

// Report is everything the page shows.
type Report struct {
	Range       string
	Generated   string
	Total       Count
	Blocked     Count
	Passed      Count
	Verify      Verification
	VerifyLine  string
	Unprotected string
	// ReadError says why the decisions of a broken log could not be read.
	ReadError   string
	Hourly      bool
	Buckets     []Bucket
	Outcomes    []string
	Gates       []GateRow
	ByGate      []KeyCount
	ByRequester []KeyCount
	ByTask      []KeyCount
	Tasks       []TaskTrail
	Waivers     []Event
	Notes       []Note
	TaskChanges []Event
	Switched    []TierSwitch
	Omitted     map[string]int // list name → rows not listed
	Queries     []Query

	queryIDs     map[string]string
	base         []string
	since, until time.Time
}

// maxTrail and maxList bound the rows a trail or a list shows; the rest
// are counted and reachable through their query.
const (
	maxTrail = 200
	maxList  = 500
)

// Build returns the report of entries, the decisions of req's range.
// readErr is why they could not be read (a broken log whose rows cannot be
// read any more): the page then reports the break, and that nothing else
// could be read.
func Build(entries []store.Entry, readErr error, req Request) (*Report, error) {
	r := &Report{Verify: req.Verify, queryIDs: map[string]string{}, Omitted: map[string]int{},
		Outcomes: []string{string(store.OutcomePassed), string(store.OutcomeFailed), string(store.OutcomeNotApplicable), string(store.OutcomeCouldNotRun)}}
	r.base, r.Range = rangeArgs(req.Since, req.Until)
	r.since, r.until = req.Since, req.Until
	if !req.Generated.IsZero() {
		r.Generated = stampOf(req.Generated)
	}
	r.VerifyLine = shellLine(append([]string{"tausik", "log", "verify"}, req.VerifyArgs...))
	r.verification(req)
	if readErr != nil {
		r.ReadError = readErr.Error()
		entries = nil
	}
	if err := r.tally(entries); err != nil {
		return nil, err
	}
	return r, nil
}

// rangeArgs turns the bounds into log list flags with absolute times, so a
// query reproduces the same decisions tomorrow.
func rangeArgs(since, until time.Time) ([]string, string) {
	switch {
	case !since.IsZero() && !until.IsZero():
		return []string{"--between", timeArg(since) + "," + timeArg(until)}, stampOf(since) + " to " + stampOf(until) + " (exclusive)"
	case !since.IsZero():
		return []string{"--since", timeArg(since)}, "since " + stampOf(since)
	case !until.IsZero():
		return []string{"--between", timeArg(time.Unix(0, 0)) + "," + timeArg(until)}, "until " + stampOf(until) + " (exclusive)"
	}
	return nil, "the whole log"
}

func timeArg(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func stampOf(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05Z") }

// count returns a Count of n tied to `tausik log list` with the base range
// and extra flags.
func (r *Report) count(n int, extra ...string) Count {
	args := append(append([]string{"log", "list"}, r.base...), extra...)
	return Count{N: n, Q: r.query(args)}
}

func (r *Report) query(args []string) string {
	line := shellLine(append([]string{"tausik"}, args...))
	if id, ok := r.queryIDs[line]; ok {
		return id
	}
	id := fmt.Sprintf("q%d", len(r.Queries)+1)
	r.queryIDs[line] = id
	r.Queries = append(r.Queries, Query{ID: id, Args: args, Line: line})
	return id
}

// shellLine quotes each argument for a POSIX shell where it needs it.
func shellLine(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:,/+=@") == "" {
			out[i] = a
		} else {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

func (r *Report) verification(req Request) {
	v := r.Verify
	switch {
	case req.Checkpoints == 0:
		r.Unprotected = "every decision: no checkpoint was given, so whoever can write the database can rewrite it whole"
	case v.Covered < v.Log.Size:
		r.Unprotected = fmt.Sprintf("decisions %d..%d, after the newest checkpoint the log extends", v.Covered+1, v.Log.Size)
	}
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
