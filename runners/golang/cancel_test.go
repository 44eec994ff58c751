package golang_test

import (
	"context"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/golang"
	"github.com/tausik/tausik/runners/internal/sourcetest"
)

// TestGatherCancelledFailsClosed: a cancelled evaluation on a tree without
// .go files is not an empty, passing go namespace.
func TestGatherCancelledFailsClosed(t *testing.T) {
	root := sourcetest.GitRepo(t, map[string]string{"m.py": "x = 1\n"})
	ctx, cancel := context.WithCancel(context.Background())
	s := &runners.Scope{Root: root}
	if _, err := s.RepoFiles(ctx); err != nil { // listed by another runner first
		t.Fatal(err)
	}
	cancel()
	if ns := golang.New().Gather(ctx, s); ns.Status == facts.StatusOK {
		t.Errorf("cancelled gather: status %v, files %v", ns.Status, ns.Data)
	}
}
