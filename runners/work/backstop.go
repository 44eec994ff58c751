package work

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/treestate"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

// BackstopTriggers are the moments at which the task runner compares the
// work tree with the states the active scoped tasks recorded at their start.
var BackstopTriggers = []string{"post-write", "task-done", "commit"}

// backstop compares the tree at root with the recorded start of every
// active task that declares a scope. A failure is reported in the facts
// (Error), not as a namespace error, so the gates that read only the tasks
// still see them.
func backstop(ctx context.Context, st *store.Store, root string, active []store.Task) *facts.Backstop {
	out := &facts.Backstop{Changes: []facts.TreeChange{}, Unrecorded: []string{}}
	seen := map[string]bool{}
	for _, t := range active { // oldest first: a path is the oldest task's
		if t.Scope == nil {
			continue
		}
		text, err := st.TaskTree(ctx, t.Slug)
		if errors.Is(err, store.ErrNotFound) {
			out.Unrecorded = append(out.Unrecorded, t.Slug)
			continue
		}
		if err != nil {
			out.Error = err.Error()
			return out
		}
		s, err := treestate.Decode(text)
		if err == nil {
			var changes []treestate.Change
			if changes, err = treestate.Compare(ctx, root, s, runners.GitEnv()); err == nil {
				for _, c := range changes {
					if !seen[c.Path] {
						seen[c.Path] = true
						out.Changes = append(out.Changes, facts.TreeChange{Path: c.Path, Change: c.Change, Peer: c.Peer, Task: t.Slug})
					}
				}
				continue
			}
		}
		out.Error = fmt.Sprintf("compare the tree with the start of task %s: %v", t.Slug, err)
		return out
	}
	sortChanges(out.Changes)
	return out
}

func sortChanges(c []facts.TreeChange) {
	slices.SortFunc(c, func(a, b facts.TreeChange) int { return strings.Compare(a.Path, b.Path) })
}
