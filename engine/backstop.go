package engine

import (
	"context"
	"fmt"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/internal/treestate"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

// recordTree takes the work tree's state for a task that declares a scope
// ("" for one that does not: it has nothing to be judged against). A tree
// that cannot be read refuses the start (ErrStore): a scoped task without a
// record could change anything unseen.
func (e *Engine) recordTree(ctx context.Context, t store.Task) (string, error) {
	if t.Scope == nil {
		return "", nil
	}
	s, err := treestate.Record(ctx, e.root, runners.GitEnv())
	if err != nil {
		return "", fmt.Errorf("%w: record the work tree for task %s's scope: %v", ErrStore, t.Slug, err)
	}
	return s.Encode(), nil
}

// CheckToolCall evaluates the post-write gates after c ran, while a task
// with a declared scope is active, and returns the decision, logged with
// the call. A call that writes nothing (a read, another tool), or one made
// with no scoped task active, returns a nil decision: nothing to judge.
func (e *Engine) CheckToolCall(ctx context.Context, c ToolCall) (*Decision, error) {
	if c.Kind != KindWrite && c.Kind != KindShell {
		return nil, nil
	}
	st, err := e.needStore()
	if err != nil {
		return nil, err
	}
	active, err := st.ActiveTasks(ctx)
	if err != nil {
		return nil, storeErr(err)
	}
	scoped := false
	for _, t := range active {
		scoped = scoped || t.Scope != nil
	}
	if !scoped {
		return nil, nil
	}
	// What the call showed it would write was judged before it ran; now
	// the tree is, so the request carries the call for the record only.
	rec := c
	rec.Writes, rec.Unknown, rec.Texts = nil, nil, nil
	if rec.Event == "" {
		rec.Event = EventPostToolUse
	}
	return e.Evaluate(ctx, Request{Trigger: gate.TriggerPostWrite, Tool: &rec})
}
