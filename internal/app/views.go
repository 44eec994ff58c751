package app

import (
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/work"
	"github.com/tausik/tausik/store"
)

// TaskView is a task as tausik's outputs show it: the same shape as the
// "task" facts policies read, so a person, an agent and a gate see one thing.
func TaskView(t store.Task) facts.Task { return runners.FactsTask(t) }

// SessionView is a session state as tausik's outputs show it: the same
// shape as the "session" facts.
func SessionView(st store.SessionState) facts.SessionFacts { return work.SessionFacts(st) }
