package runners

import (
	"context"
	"slices"
	"testing"

	"github.com/tausik/tausik/facts"
)

// TestScopeUsesListing: a scope given a listing of its root taken
// beforehand lists from it, not again; a listing of another root is not
// used.
func TestScopeUsesListing(t *testing.T) {
	hermeticGit(t)
	ctx := context.Background()
	root := tempDir(t)
	gitCmd(t, root, "init", "-q")
	writeFiles(t, root, map[string]string{"a.go": "package a\n", ".gitignore": "*.log\n", "x.log": "ignored\n"})
	l := StartListing(ctx, root)
	if _, err := l.wait(ctx); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{"b.go": "package a\n"}) // after the listing
	s := NewScope(root, facts.Request{})
	s.UseListing(l)
	got, err := s.RepoFiles(ctx)
	if err != nil || !slices.Equal(got, []string{".gitignore", "a.go"}) {
		t.Fatalf("RepoFiles = %v, %v; want the listing taken before b.go", got, err)
	}
	other := NewScope(tempDir(t), facts.Request{})
	other.UseListing(l)
	if got, err := other.RepoFiles(ctx); err != nil || len(got) != 0 {
		t.Fatalf("another root's scope listed %v, %v", got, err)
	}
}

// A listing whose context ended is that context's error, never a listing
// of nothing.
func TestListingCanceled(t *testing.T) {
	hermeticGit(t)
	root := tempDir(t)
	gitCmd(t, root, "init", "-q")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := NewScope(root, facts.Request{})
	s.UseListing(StartListing(ctx, root))
	if got, err := s.RepoFiles(context.Background()); err == nil {
		t.Fatalf("a canceled listing gave %v", got)
	}
}
