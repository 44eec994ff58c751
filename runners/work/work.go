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

// ProposedTask is the facts shape of a task a task-start request asks
// about: status "proposed", no start time.
func ProposedTask(t store.Task) facts.Task {
	out := runners.FactsTask(t)
	out.Status, out.StartedAt, out.DoneAt = "proposed", "", ""
	return out
}
