package app

import (
	"context"
	"fmt"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/stacks"
)

// StackRoots returns, for each stack gate whose tool the project at root
// uses, the roots it judges (repo-relative, sorted): what `policy list`
// shows beside the gate.
func StackRoots(ctx context.Context, root string) (map[string][]string, error) {
	f, err := stacks.ForScope(ctx, runners.NewScope(root, facts.Request{}))
	if err != nil {
		return nil, fmt.Errorf("stacks: %w", err)
	}
	out := map[string][]string{}
	for _, t := range stacks.StackTools() {
		for _, r := range f.Tools[t.Name].Roots {
			out[t.Name] = append(out[t.Name], r.Dir)
		}
	}
	return out, nil
}
