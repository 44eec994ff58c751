// Package toolstub stands in for the runner of the `tool` namespace (the
// agent tool call a hook judges) until that runner is merged: it makes the
// namespace known, so gates that read it load, and reports it unavailable
// with reason not_a_tool_call, the answer the real runner gives outside a
// hook. Facts-level fixtures carry the namespace themselves. Remove this
// package when the real runner lands.
package toolstub

import (
	"context"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// Namespace is the key of the tool call's facts.
const Namespace = "tool"

// Runner reports the tool namespace as not gathered.
type Runner struct{}

// Namespace implements runners.Runner.
func (Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner.
func (Runner) Gather(context.Context, *runners.Scope) facts.Namespace {
	return facts.Unavailable("not_a_tool_call")
}
