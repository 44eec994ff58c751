package engine

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/stacks"
)

// ReasonNotUsed is the reason of a command namespace the engine did not
// gather because the stacks facts show the project does not use its tool.
const ReasonNotUsed = "not_used"

// gatherStacksFirst gathers the stacks namespace before the others when
// needs holds it together with a command namespace whose tool stacks
// reports on (stacks.ToolNames): a tool the project shows no sign of using is
// not run, and its namespace is unavailable with ReasonNotUsed, for its gate
// to say NOT_APPLICABLE. When stacks cannot be gathered every tool runs
// (fail closed). It returns the namespaces it set in doc.
func (e *Engine) gatherStacksFirst(ctx context.Context, scope *runners.Scope, needs []string, doc *facts.Document, took map[string]int64) []string {
	tools := slices.DeleteFunc(slices.Clone(needs), func(ns string) bool { return !slices.Contains(stacks.ToolNames(), ns) })
	if len(tools) == 0 || !slices.Contains(needs, stacks.Namespace) {
		return nil
	}
	r, ok := e.runners.Get(stacks.Namespace)
	if !ok {
		return nil
	}
	t0 := time.Now()
	got := gatherSafely(ctx, r, scope)
	doc.Set(stacks.Namespace, got)
	took[stacks.Namespace] = time.Since(t0).Nanoseconds()
	done := []string{stacks.Namespace}
	f, ok := got.Data.(stacks.Facts)
	if got.Status != facts.StatusOK || !ok {
		return done
	}
	for _, ns := range tools {
		if t, known := f.Tools[ns]; known && !t.Used {
			doc.Set(ns, facts.Unavailable(ReasonNotUsed))
			done = append(done, ns)
		}
	}
	return done
}

// toolUse answers, for the project tier's switching a gate off, whether
// the gate is a command gate whose tool the project shows no sign of using.
// The stacks facts are gathered once, on the first question, so an engine
// whose project tier switches nothing off never looks.
type toolUse func(gate string) (unused bool)

// projectToolUse is the engine's toolUse: only a built-in command gate of
// stacks.ToolNames qualifies, and stacks that cannot be gathered count as used.
func (e *Engine) projectToolUse(ctx context.Context) toolUse {
	var once sync.Once
	var f stacks.Facts
	var ok bool
	return func(gate string) bool {
		if _, builtin := e.builtinSpec(gate); !builtin || !slices.Contains(stacks.ToolNames(), gate) {
			return false
		}
		once.Do(func() {
			r, found := e.runners.Get(stacks.Namespace)
			if !found {
				return
			}
			got := gatherSafely(ctx, r, runners.NewScope(e.root, facts.Request{}))
			f, ok = got.Data.(stacks.Facts)
			ok = ok && got.Status == facts.StatusOK
		})
		t, known := f.Tools[gate]
		return ok && known && !t.Used
	}
}

// switchOffUnused lets the project tier switch off a command gate whose
// tool the project shows no sign of using: a gate that would only say
// NOT_APPLICABLE weakens nothing. The switch is reported as a warning (and
// in every decision's tier settings); false leaves the refusal standing.
func (a *applier) switchOffUnused() bool {
	if a.unused == nil || !a.unused(a.g.Name) {
		return false
	}
	line := a.t.doc.line("gates", a.g.Name, "enabled")
	a.warnings = append(a.warnings, fmt.Sprintf("%s:%d: %s: accepted: the project shows no sign of using %s (see `tausik facts --namespace stacks`), so the project tier may switch its gate off",
		a.t.display, line, a.key("enabled"), a.g.Name))
	return true
}
