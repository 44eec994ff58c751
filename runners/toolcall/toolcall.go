// Package toolcall is the runner for the "tool" namespace: the agent tool
// call a hook judges, as the engine normalised it from the host's payload.
// At a trigger that judges no tool call the namespace is unavailable.
package toolcall

import (
	"context"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// Namespace is the key of the facts this runner gives.
const Namespace = "tool"

// Runner gives the "tool" namespace from the scope's tool call.
type Runner struct{}

// New returns the tool runner.
func New() Runner { return Runner{} }

// Namespace implements runners.Runner.
func (Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner.
func (Runner) Gather(_ context.Context, s *runners.Scope) facts.Namespace {
	if s.Tool == nil {
		return facts.Unavailable(facts.NotAToolCall)
	}
	return facts.OK(*s.Tool)
}
