package runners

import (
	"context"

	"github.com/tausik/tausik/internal/warmgo"
)

// Listing is a project's file listing (ListFiles) taken in the background,
// for a later evaluation's scope to use instead of listing again
// (Scope.UseListing): a post-tool-use hook lists the files its write
// findings need while the tree backstop, the judgement before them, runs.
type Listing struct {
	root  string
	done  chan struct{}
	files []string
	err   error
}

// StartListing starts listing the files of the project at root; ending ctx
// stops it (git is killed), and the listing is then ctx's error.
func StartListing(ctx context.Context, root string) *Listing {
	l := &Listing{root: root, done: make(chan struct{})}
	warmgo.Go(func() { // a resident evaluator's idle goroutine, as its gathers use
		defer close(l.done)
		l.files, l.err = ListFiles(ctx, root)
	})
	return l
}

// wait returns the listing once it is taken, or ctx's error first.
func (l *Listing) wait(ctx context.Context) ([]string, error) {
	select {
	case <-l.done:
		return l.files, l.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
