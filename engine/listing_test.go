package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tausik/tausik/runners"
)

// TestRequestListingIsTheScopes: a request carrying a listing taken
// beforehand gives its runners that listing, not a new one.
func TestRequestListingIsTheScopes(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e := builtinEngine(t, root)
	ctx := context.Background()
	l := runners.StartListing(ctx, e.Root())
	if got, err := e.scope(Request{Trigger: TriggerTaskDone, Listing: l}, time.Now()).RepoFiles(ctx); err != nil || !slices.Equal(got, []string{"a.go"}) {
		t.Fatalf("the listing: %v, %v", got, err)
	}
	if err := os.WriteFile(filepath.Join(root, "b.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.scope(Request{Trigger: TriggerTaskDone, Listing: l}, time.Now()).RepoFiles(ctx); !slices.Equal(got, []string{"a.go"}) {
		t.Fatalf("a request with a listing listed again: %v", got)
	}
	if got, _ := e.scope(Request{Trigger: TriggerTaskDone}, time.Now()).RepoFiles(ctx); !slices.Equal(got, []string{"a.go", "b.go"}) {
		t.Fatalf("a request without one: %v", got)
	}
}
