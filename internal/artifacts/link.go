package artifacts

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/tausik/tausik/store"
)

// Linked says where LinkTask recorded a link.
type Linked struct {
	// Where is "task" (the task record's specs/adapts) or the artifact file
	// that now names the task.
	Where string
	// Already is true when the link was there before.
	Already bool
}

// LinkTask links task to the artifact of kind with slug. An active task
// records it in its own specs or adapts; a closed task cannot change, so
// the link goes into the artifact (a SPEC's linked_tasks, an ADAPT's links).
// ErrNotFound for an unknown task or artifact.
func (r Repo) LinkTask(ctx context.Context, st *store.Store, task, kind, slug string) (Linked, error) {
	if _, err := r.Load(kind, slug); err != nil {
		return Linked{}, err
	}
	t, err := st.GetTask(ctx, task)
	if errors.Is(err, store.ErrNotFound) {
		return Linked{}, fmt.Errorf("%w: task %q does not exist (`tausik task list` shows the tasks)", ErrNotFound, task)
	}
	if err != nil {
		return Linked{}, err
	}
	list := t.Specs
	if kind == KindAdapt {
		list = t.Adapts
	}
	if slices.Contains(list, slug) {
		return Linked{Where: "task", Already: true}, nil
	}
	if t.Status != store.TaskActive {
		if kind == KindSpec {
			return Linked{Where: Rel(kind, slug)}, r.AddSpecTask(slug, task)
		}
		return Linked{Where: Rel(kind, slug)}, r.AddAdaptTask(slug, task)
	}
	_, err = st.UpdateTask(ctx, task, func(t *store.Task) error {
		if kind == KindSpec {
			t.Specs = append(t.Specs, slug)
		} else {
			t.Adapts = append(t.Adapts, slug)
		}
		return nil
	})
	return Linked{Where: "task"}, err
}
