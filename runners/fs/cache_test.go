package fs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/cache"
	"github.com/tausik/tausik/store"
)

// cachedRun gathers paths under root with a runner caching in st.
func cachedRun(t *testing.T, st *store.Store, root string, paths ...string) map[string]facts.File {
	t.Helper()
	ns := New(WithCache(st)).Gather(context.Background(), runners.NewScope(root, facts.Request{Explicit: true, Files: paths}))
	if ns.Status != facts.StatusOK {
		t.Fatalf("status %s: %s", ns.Status, ns.Reason)
	}
	out := map[string]facts.File{}
	for _, f := range ns.Data.(facts.Files).Files {
		out[f.Path] = f
	}
	return out
}

// age sets a file's modification time an hour back, out of the racy window.
// (Its change time stays now; cacheSettled waits that out.)
func age(t *testing.T, root, rel string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(root, rel), old, old); err != nil {
		t.Fatal(err)
	}
}

// settle waits past the racy window of files changed just now.
func settle() { time.Sleep(150 * time.Millisecond) }

func memStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.OpenMemory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// A cached file is answered from the index without being read: an entry
// planted with other facts for the file's exact stamp is what comes back.
func TestCacheAnswersWithoutReading(t *testing.T) {
	root := tempDir(t)
	writeFile(t, root, "a.py", []byte("x = 1\n"))
	settle()
	st := memStore(t)
	first := cachedRun(t, st, root, "a.py")["a.py"]
	info, _ := os.Lstat(filepath.Join(root, "a.py"))
	stamp, _ := cache.StampOf(info)
	ix := cache.LoadIndex(context.Background(), st, Namespace, Version, root)
	if h, ok := ix.Lookup("a.py", stamp); !ok || h.SHA256 != first.SHA256 || h.Token != "1:0" {
		t.Fatalf("the first run recorded %+v %v", h, ok)
	}
	ix.Record("a.py", stamp, time.Now(), cache.Hit{SHA256: first.SHA256, Token: "6:1"}) // planted: 6 lines, binary
	if err := ix.Save(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := cachedRun(t, st, root, "a.py")["a.py"]; got.Lines != 6 || !got.Binary || got.SHA256 != first.SHA256 || got.Size != 6 {
		t.Fatalf("second run %+v: want the planted entry, served without a read", got)
	}
}

// Every change a stamp can see is a miss, and the facts are the new file's.
func TestCacheSeesChanges(t *testing.T) {
	root := tempDir(t)
	writeFile(t, root, "same_size.py", []byte("a = 1\n"))
	writeFile(t, root, "grown.py", []byte("a = 1\n"))
	writeFile(t, root, "replaced.py", []byte("a = 1\n"))
	writeFile(t, root, "gone.py", []byte("a = 1\n"))
	for _, p := range []string{"same_size.py", "grown.py", "replaced.py", "gone.py"} {
		age(t, root, p)
	}
	settle()
	st := memStore(t)
	before := cachedRun(t, st, root, "same_size.py", "grown.py", "replaced.py", "gone.py")

	// Same size, and the old modification time put back: only the change
	// time tells, and it is in the stamp.
	p := filepath.Join(root, "same_size.py")
	if err := os.WriteFile(p, []byte("b = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	age(t, root, "same_size.py")
	writeFile(t, root, "grown.py", []byte("a = 1\nb = 2\n"))
	tmp := filepath.Join(root, "new.tmp")
	if err := os.WriteFile(tmp, []byte("c = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(root, "replaced.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "gone.py")); err != nil {
		t.Fatal(err)
	}
	settle()
	after := cachedRun(t, st, root, "same_size.py", "grown.py", "replaced.py", "gone.py")
	uncached, err := Stat(context.Background(), root, []string{"same_size.py", "grown.py", "replaced.py", "gone.py"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range uncached {
		if got := after[want.Path]; got != want {
			t.Errorf("%s: cached run %+v, a fresh read %+v", want.Path, got, want)
		}
		if want.Exists && want.SHA256 == before[want.Path].SHA256 {
			t.Errorf("%s: the test did not change the content", want.Path)
		}
	}
	if g := after["gone.py"]; g.Exists || g.Kind != "missing" {
		t.Errorf("gone.py: %+v", g)
	}
}

// A file written moments before it is read is read again next time: its
// stamp could hide a second write in the same clock tick.
func TestCacheDoesNotTrustRacyStamps(t *testing.T) {
	root := tempDir(t)
	writeFile(t, root, "hot.py", []byte("a = 1\n"))
	st := memStore(t)
	info, _ := os.Lstat(filepath.Join(root, "hot.py"))
	stamp, _ := cache.StampOf(info)
	changed := time.Unix(0, max(stamp.MtimeNS, stamp.CtimeNS))
	run := func(seen time.Time) {
		r := New(WithCache(st), WithClock(func() time.Time { return seen }))
		if ns := r.Gather(context.Background(), runners.NewScope(root, facts.Request{Explicit: true, Files: []string{"hot.py"}})); ns.Status != facts.StatusOK {
			t.Fatalf("status %s: %s", ns.Status, ns.Reason)
		}
	}
	run(changed.Add(time.Millisecond)) // read in the same instant the file was written
	if _, ok := cache.LoadIndex(context.Background(), st, Namespace, Version, root).Lookup("hot.py", stamp); ok {
		t.Fatal("a stamp taken within the racy window was trusted")
	}
	run(changed.Add(3 * time.Second)) // read once the file has been still
	if _, ok := cache.LoadIndex(context.Background(), st, Namespace, Version, root).Lookup("hot.py", stamp); !ok {
		t.Fatal("once still, the file is cached")
	}
}

// Cached facts that cannot describe the file (a damaged or foreign entry)
// are not used: the file is read and the entry rebuilt.
func TestCacheRebuildsImpossibleEntries(t *testing.T) {
	root := tempDir(t)
	writeFile(t, root, "a.py", []byte("x = 1\ny = 2\n"))
	settle()
	st := memStore(t)
	want := cachedRun(t, st, root, "a.py")["a.py"]
	info, _ := os.Lstat(filepath.Join(root, "a.py"))
	stamp, _ := cache.StampOf(info)
	for _, tok := range []string{"99:0", "0:0", "-1:0", "2:2", "2", "x:0"} {
		ix := cache.LoadIndex(context.Background(), st, Namespace, Version, root)
		ix.Record("a.py", stamp, time.Now().Add(time.Second), cache.Hit{SHA256: want.SHA256, Token: tok})
		if err := ix.Save(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := cachedRun(t, st, root, "a.py")["a.py"]; got != want {
			t.Errorf("token %q: %+v, want %+v", tok, got, want)
		}
		if h, ok := cache.LoadIndex(context.Background(), st, Namespace, Version, root).Lookup("a.py", stamp); !ok || h.Token != "2:0" {
			t.Errorf("token %q was not rebuilt: %+v %v", tok, h, ok)
		}
	}
}

// TestNoStoreNoCache: without a store the runner reads every file, every time.
func TestNoStoreNoCache(t *testing.T) {
	root := tempDir(t)
	writeFile(t, root, "a.py", []byte("x\n"))
	ns := New(WithCache(nil)).Gather(context.Background(), runners.NewScope(root, facts.Request{Explicit: true, Files: []string{"a.py"}}))
	if ns.Status != facts.StatusOK || ns.Data.(facts.Files).Files[0].Lines != 1 {
		t.Fatalf("%+v", ns)
	}
}

// BenchmarkGather600 gathers 600 Python files of 4 KiB, uncached and warm
// from the cache: the warm run lstats each file and reads none.
func BenchmarkGather600(b *testing.B) {
	root := tempDir(b)
	paths := make([]string, 600)
	for i := range paths {
		paths[i] = fmt.Sprintf("pkg%02d/m%04d.py", i%20, i)
		writeFile(b, root, paths[i], bytes.Repeat([]byte("    def m(self, x):\n        return x + 1\n\n"), 100))
	}
	settle()
	st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "t.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	req := facts.Request{Explicit: true, Files: paths}
	for _, c := range []struct {
		name string
		r    *Runner
	}{{"uncached", New()}, {"warm", New(WithCache(st))}} {
		c.r.Gather(context.Background(), runners.NewScope(root, req))
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if ns := c.r.Gather(context.Background(), runners.NewScope(root, req)); ns.Status != facts.StatusOK {
					b.Fatal(ns.Reason)
				}
			}
		})
	}
}
