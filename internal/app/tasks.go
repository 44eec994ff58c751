package app

import (
	"context"
	"fmt"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/store"
)

// GetTask returns one task. diag.ErrUsage when it does not exist.
func GetTask(ctx context.Context, st *store.Store, slug string) (store.Task, error) {
	if st == nil {
		return store.Task{}, fmt.Errorf("%w: no store", diag.ErrStore)
	}
	t, err := st.GetTask(ctx, slug)
	return t, engine.StoreErr(err)
}

// ListTasks returns the tasks with status ("" for all), oldest first.
func ListTasks(ctx context.Context, st *store.Store, status string) ([]store.Task, error) {
	if st == nil {
		return nil, fmt.Errorf("%w: no store", diag.ErrStore)
	}
	if status != "" && !store.TaskStatus(status).Valid() {
		return nil, fmt.Errorf("%w: status %q is not one of active, done, abandoned", diag.ErrUsage, status)
	}
	ts, err := st.ListTasks(ctx, store.TaskStatus(status))
	return ts, engine.StoreErr(err)
}
