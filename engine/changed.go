package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/tausik/tausik/runners/git"
)

// changedFiles lists the files changed since ref for a request whose scope
// is "what changed" (Request.ChangedFiles). A ref git cannot use, or a
// project that is not a git work tree, is a usage error naming the ref.
func (e *Engine) changedFiles(ctx context.Context, ref string) ([]string, error) {
	files, err := git.New().ChangedFiles(ctx, e.root, ref)
	switch {
	case errors.Is(err, git.ErrBadSince):
		return nil, fmt.Errorf("%w: --changed-since %q: %v", ErrUsage, ref, err)
	case errors.Is(err, git.ErrNotRepo):
		return nil, fmt.Errorf("%w: --changed-since %q: %s is not in a git work tree", ErrUsage, ref, e.root)
	case err != nil:
		return nil, fmt.Errorf("files changed since %q: %w", ref, err)
	}
	if files == nil {
		files = []string{}
	}
	return files, nil
}
