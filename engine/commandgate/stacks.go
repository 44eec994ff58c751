package commandgate

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/tausik/tausik/engine/config"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/stacks"
)

// ReasonNotUsed is the reason of a command namespace the engine does not
// gather because the stacks facts show the project does not use its tool.
const ReasonNotUsed = "not_used"

// GatherOne gathers one runner's namespace over scope (the engine's: a
// runner that panics yields an error namespace).
type GatherOne func(ctx context.Context, r runners.Runner, scope *runners.Scope) facts.Namespace

// StacksFirst gathers the stacks namespace before the others when
// needs holds it together with a command namespace whose tool stacks
// reports on (stacks.ToolNames): a tool the project shows no sign of using is
// not run, and its namespace is unavailable with ReasonNotUsed, for its gate
// to say NOT_APPLICABLE. When stacks cannot be gathered every tool runs
// (fail closed). It returns the namespaces it set in doc.
func StacksFirst(ctx context.Context, reg *runners.Registry, gather GatherOne, scope *runners.Scope, needs []string, doc *facts.Document, took map[string]int64) []string {
	names := stacks.ToolNames()
	tools := slices.DeleteFunc(slices.Clone(needs), func(ns string) bool { return !slices.Contains(names, ns) })
	if len(tools) == 0 || !slices.Contains(needs, stacks.Namespace) {
		return nil
	}
	r, ok := reg.Get(stacks.Namespace)
	if !ok {
		return nil
	}
	t0 := time.Now()
	got := gather(ctx, r, scope)
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

// ToolUse is the project's config.ToolUse, asking the stacks runner of reg
// (gathered with gather over root): only a built-in command gate of
// stacks.ToolNames qualifies, and stacks that cannot be gathered count as used.
func (s *Set) ToolUse(ctx context.Context, reg *runners.Registry, gather GatherOne, root string) config.ToolUse {
	var once sync.Once
	var f stacks.Facts
	var ok bool
	return func(gate string) bool {
		if _, builtin := s.Builtin(gate); !builtin || !slices.Contains(stacks.ToolNames(), gate) {
			return false
		}
		once.Do(func() {
			r, found := reg.Get(stacks.Namespace)
			if !found {
				return
			}
			got := gather(ctx, r, runners.NewScope(root, facts.Request{}))
			f, ok = got.Data.(stacks.Facts)
			ok = ok && got.Status == facts.StatusOK
		})
		t, known := f.Tools[gate]
		return ok && known && !t.Used
	}
}
