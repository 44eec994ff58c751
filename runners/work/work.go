// Package work holds the workflow runners: "task", "session" and "verify"
// read the project's store (tasks, sessions, verify runs) and report what it
// holds, so the workflow gates (verify_first, session_capacity, scope_write…)
// can judge a task start or close. The verify runner also checks each run's
// signed receipt against the project's public key and reports what it found,
// as booleans and a reason; trusting it or not is the policy's call.
//
// A runner without a store, or whose store cannot be read, returns status
// error: a gate over workflow state it could not see must not pass.
package work

import (
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

// Namespaces filled by this package's runners.
const (
	NamespaceTask    = "task"
	NamespaceSession = "session"
	NamespaceVerify  = "verify"
)

// New returns the three workflow runners over st, which may be nil (every
// namespace is then an error).
func New(st *store.Store) []runners.Runner {
	return []runners.Runner{&TaskRunner{st: st}, &SessionRunner{st: st}, &VerifyRunner{st: st}}
}

// noStore is the reason every namespace gives when there is no store.
const noStore = "no store is open: workflow state (tasks, sessions, verify runs) cannot be read"

// FactsTask converts a stored task to its facts shape.
func FactsTask(t store.Task) facts.Task {
	out := facts.Task{
		Slug: t.Slug, Goal: t.Goal, ScopePaths: t.Scope, Tier: string(t.Tier), Complexity: string(t.Complexity),
		Delegated: t.Delegated, Specs: nonNil(t.Specs), Adapts: nonNil(t.Adapts), Files: nonNil(t.Files),
		Status: string(t.Status), StartedAt: formatTime(t.StartedAt), DoneAt: formatTime(t.DoneAt),
	}
	if t.Scope != nil {
		out.ScopePaths = append([]string{}, t.Scope...)
	}
	if t.CallBudget != nil {
		b := int64(*t.CallBudget)
		out.CallBudget = &b
	}
	return out
}

// ProposedTask is the facts shape of a task a task-start request asks
// about: status "proposed", no start time.
func ProposedTask(t store.Task) facts.Task {
	out := FactsTask(t)
	out.Status, out.StartedAt, out.DoneAt = "proposed", "", ""
	return out
}

// formatTime renders t as RFC 3339 UTC, "" for the zero time.
func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return append([]string{}, s...)
}
