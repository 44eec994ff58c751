package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/cache"
	"github.com/tausik/tausik/runners/fs"
	"github.com/tausik/tausik/runners/python"
	"github.com/tausik/tausik/store"
)

// TestDefaultRunnersCacheFileFacts: with a store, the fs and python runners
// keep what they read of a file in its fact cache, under their versions.
func TestDefaultRunnersCacheFileFacts(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	p := filepath.Join(root, "a.py")
	if err := os.WriteFile(p, []byte("class A:\n    x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	time.Sleep(150 * time.Millisecond) // past the racy window of the change time
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := DefaultRunners(st)
	for _, ns := range []string{fs.Namespace, python.Namespace} {
		r, _ := reg.Get(ns)
		if got := r.Gather(ctx, runners.NewScope(root, facts.Request{Explicit: true, Files: []string{"a.py"}})); got.Status != facts.StatusOK {
			t.Fatalf("%s: %s %s", ns, got.Status, got.Reason)
		}
	}
	info, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	stamp, _ := cache.StampOf(info)
	for ns, version := range map[string]string{fs.Namespace: fs.Version, python.Namespace: python.Version} {
		if _, ok := cache.LoadIndex(ctx, st, ns, version, root).Lookup("a.py", stamp); !ok {
			t.Errorf("%s: a.py is not in the fact cache", ns)
		}
	}
}
