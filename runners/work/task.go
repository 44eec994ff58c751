package work

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

// TaskRunner fills the "task" namespace.
type TaskRunner struct{ st *store.Store }

// Namespace implements runners.Runner.
func (*TaskRunner) Namespace() string { return NamespaceTask }

// Gather implements runners.Runner: the request's task (the proposed one at
// task-start) and every active task. A task the request names that does not
// exist is Found false, not an error: the policy says what that means.
func (r *TaskRunner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	if r.st == nil {
		return facts.Error(noStore)
	}
	active, err := r.st.ActiveTasks(ctx)
	if err != nil {
		return facts.Error(fmt.Sprintf("read active tasks: %v", err))
	}
	// A scope is trusted only as the log records it: a row changed behind
	// tausik's back (an SQL client, a script) fails every gate that reads it.
	if b, err := r.st.CheckActiveTasks(ctx, active); err != nil {
		return facts.Error(err.Error())
	} else if b != nil {
		return facts.Error(fmt.Sprintf("the tasks table was changed outside tausik (%s); a person must restore it (tausik log verify names the change)", b.Detail))
	}
	out := facts.TaskFacts{Slug: s.Request.Task, Active: make([]facts.Task, 0, len(active))}
	for _, t := range active {
		out.Active = append(out.Active, runners.FactsTask(t))
	}
	if slices.Contains(BackstopTriggers, s.Request.Trigger) {
		out.Backstop = backstop(ctx, r.st, s.Root, active)
	}
	switch {
	case s.Work.Proposed != nil:
		p := *s.Work.Proposed
		out.Slug, out.Found, out.Task = p.Slug, true, &p
	case out.Slug != "":
		t, err := r.st.GetTask(ctx, out.Slug)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return facts.Error(fmt.Sprintf("read task %s: %v", out.Slug, err))
		default:
			ft := runners.FactsTask(t)
			out.Found, out.Task = true, &ft
		}
	}
	return facts.OK(out)
}
