package project

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tausik/tausik/engine/stdrunners"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/cache"
	"github.com/tausik/tausik/runners/fs"
	"github.com/tausik/tausik/runners/golang"
	"github.com/tausik/tausik/runners/python"
	"github.com/tausik/tausik/store"
)

// TestDefaultRunnersCacheFileFacts: with a store, the fs, python and go runners
// keep what they read of a file in its fact cache, under their versions.
func TestDefaultRunnersCacheFileFacts(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for name, src := range map[string]string{"a.py": "class A:\n    x = 1\n", "a.go": "package a\n\ntype A struct{ X int }\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(filepath.Join(root, name), old, old); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(150 * time.Millisecond) // past the racy window of the change time
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reg := stdrunners.New(st)
	for _, ns := range []string{fs.Namespace, python.Namespace, golang.Namespace} {
		r, _ := reg.Get(ns)
		if got := r.Gather(ctx, runners.NewScope(root, facts.Request{Explicit: true, Files: []string{"a.py", "a.go"}})); got.Status != facts.StatusOK {
			t.Fatalf("%s: %s %s", ns, got.Status, got.Reason)
		}
	}
	for _, c := range []struct{ ns, version, file string }{
		{fs.Namespace, fs.Version, "a.py"}, {python.Namespace, python.Version, "a.py"}, {golang.Namespace, golang.Version, "a.go"},
	} {
		info, err := os.Lstat(filepath.Join(root, c.file))
		if err != nil {
			t.Fatal(err)
		}
		stamp, _ := cache.StampOf(info)
		if _, ok := cache.LoadIndex(ctx, st, c.ns, c.version, root).Lookup(c.file, stamp); !ok {
			t.Errorf("%s: %s is not in the fact cache", c.ns, c.file)
		}
	}
}
