package engine

import (
	"context"

	"github.com/tausik/tausik/engine/gate"
)

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
