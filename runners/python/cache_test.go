package python

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/cache"
	"github.com/tausik/tausik/runners/internal/pyscan/pyscantest"
	"github.com/tausik/tausik/runners/internal/sourcetest"
	"github.com/tausik/tausik/store"
)

// openStore opens a real store in a file of its own, returning it and the
// database's path.
func openStore(t testing.TB) (*store.Store, string) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "t.db")
	st, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, db
}

// age sets a file's modification time an hour back; settle then waits out
// the racy window of its change time.
func age(t testing.TB, root, rel string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(root, rel), old, old); err != nil {
		t.Fatal(err)
	}
}

func settle() { time.Sleep(150 * time.Millisecond) }

// gatherWith gathers root's python namespace with r, which must succeed.
func gatherWith(t *testing.T, r *Runner, root string) []facts.PythonFile {
	t.Helper()
	ns := r.Gather(context.Background(), runners.NewScope(root, facts.Request{}))
	if ns.Status != facts.StatusOK {
		t.Fatalf("status %s: %s", ns.Status, ns.Reason)
	}
	return ns.Data.(facts.Python).Files
}

// fresh is what an uncached scan of root's .py files says.
func fresh(t *testing.T, root string) []facts.PythonFile {
	t.Helper()
	files, err := ScanFiles(context.Background(), root, pyscantest.ListPy(t, root))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// cachedRepo writes a small repository whose files are all out of their
// racy window.
func cachedRepo(t *testing.T) string {
	t.Helper()
	root := sourcetest.TempDir(t)
	for rel, src := range map[string]string{
		"a.py":      "class A:\n    x = 1\n",
		"pkg/b.py":  "from a import A\nclass B(A, mod.Mixin):\n    def run(self): pass\n    class Inner: pass\n",
		"broken.py": "class C(\n",
		"empty.py":  "",
		"c.py":      "class C: pass\n",
	} {
		sourcetest.WriteFile(t, root, rel, src)
		age(t, root, rel)
	}
	settle()
	return root
}

// A warm gather opens only the files whose bytes changed, and answers the
// others from the cache with the facts a fresh scan gives.
func TestCacheReadsOnlyChangedFiles(t *testing.T) {
	root := cachedRepo(t)
	st, _ := openStore(t)
	opens := sourcetest.CountOpens(t, root, &openFile)
	r := New(runners.WithCache(st))
	if got, want := gatherWith(t, r, root), fresh(t, root); !reflect.DeepEqual(got, want) {
		t.Fatalf("cold gather:\n%+v\nwant\n%+v", got, want)
	}
	opens() // the cold gather's and fresh's reads
	if got, want := gatherWith(t, r, root), fresh(t, root); !reflect.DeepEqual(got, want) {
		t.Fatalf("warm gather:\n%+v\nwant\n%+v", got, want)
	}
	if o := opens(); len(o) != len(pyscantest.ListPy(t, root)) { // fresh's reads only
		t.Fatalf("a warm gather opened files: %v", o)
	}
	// Same size, old modification time put back: only the change time tells.
	sourcetest.WriteFile(t, root, "a.py", "class Z:\n    y = 1\n")
	age(t, root, "a.py")
	settle()
	got := gatherWith(t, r, root)
	if o := opens(); !reflect.DeepEqual(o, []string{"a.py"}) {
		t.Errorf("after changing a.py the gather opened %v", o)
	}
	if want := fresh(t, root); !reflect.DeepEqual(got, want) || got[0].Classes[0].Name != "Z" {
		t.Errorf("after the change:\n%+v\nwant\n%+v", got, want)
	}
}

// An unchanged file is not even opened: one that has become unreadable is
// still answered from the cache.
func TestCacheServesUnreadableUnchangedFile(t *testing.T) {
	root := cachedRepo(t)
	st, _ := openStore(t)
	r := New(runners.WithCache(st))
	want := gatherWith(t, r, root)
	orig := openFile
	t.Cleanup(func() { openFile = orig })
	openFile = func(string) (io.ReadCloser, error) { return nil, fmt.Errorf("input/output error") }
	if got := gatherWith(t, r, root); !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%+v\nwant\n%+v", got, want)
	}
}

// A file read within its racy window is read again next time.
func TestCacheDoesNotTrustRacyStamps(t *testing.T) {
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "hot.py", "class Hot: pass\n")
	st, _ := openStore(t)
	info, err := os.Lstat(filepath.Join(root, "hot.py"))
	if err != nil {
		t.Fatal(err)
	}
	stamp, _ := cache.StampOf(info)
	changed := time.Unix(0, max(stamp.MtimeNS, stamp.CtimeNS))
	opens := sourcetest.CountOpens(t, root, &openFile)
	at := func(seen time.Time) []string {
		gatherWith(t, New(runners.WithCache(st), runners.WithClock(func() time.Time { return seen })), root)
		return opens()
	}
	at(changed.Add(time.Millisecond)) // read in the instant the file was written
	if o := at(changed.Add(time.Millisecond)); len(o) != 1 {
		t.Fatalf("a stamp taken within the racy window was trusted: opened %v", o)
	}
	at(changed.Add(3 * time.Second)) // read once the file has been still
	if o := at(changed.Add(4 * time.Second)); len(o) != 0 {
		t.Fatalf("once still, the file is cached; opened %v", o)
	}
}

// plant records payload for rel at its current stamp, as if the runner had
// read it out of its racy window.
func plant(t *testing.T, st cache.Store, version, root, rel, payload string) {
	t.Helper()
	info, err := os.Lstat(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	stamp, _ := cache.StampOf(info)
	ix := cache.LoadIndex(context.Background(), st, Namespace, version, root)
	ix.Record(rel, stamp, time.Now().Add(time.Hour), cache.Hit{SHA256: strings.Repeat("ab", 32), Payload: payload})
	if err := ix.Save(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// A planted payload for the file's exact stamp is served as it stands: the
// proof that the index, not the file, answers. Payloads that do not decode,
// describe another path or hold facts the scanner never gives, and payloads
// of another Version, are not: the file is read and the entry rebuilt.
func TestCacheRebuildsBadPayloads(t *testing.T) {
	root := cachedRepo(t)
	st, _ := openStore(t)
	r := New(runners.WithCache(st))
	want := gatherWith(t, r, root)
	plant(t, st, Version, root, "c.py", "4:c.pyP|1 Planted  x")
	if got := gatherWith(t, r, root); got[2].Path != "c.py" || got[2].Classes[0].Name != "Planted" {
		t.Fatalf("the planted entry was not served: %+v", got[2])
	}
	opens := sourcetest.CountOpens(t, root, &openFile)
	for _, c := range []struct{ name, version, payload string }{
		{"not a payload", Version, "garbage"},
		{"another path", Version, "4:a.pyP|1 Planted  x"},
		{"wrong path length", Version, "3:c.pyP|1 Planted  x"},
		{"classes out of order", Version, "4:c.pyP|2 A  |1 B  "},
		{"unsorted public names", Version, "4:c.pyP|1 A  y,x"},
		{"empty name", Version, "4:c.pyP|1 A  x,,y"},
		{"error without a message", Version, "4:c.pyE1 "},
		{"bad line", Version, "4:c.pyP|0 A  "},
		{"line past the end of the file", Version, "4:c.pyP|16 A  "},
		{"another version", Version + "-old", "4:c.pyP|1 Planted  x"},
	} {
		plant(t, st, c.version, root, "c.py", c.payload)
		opens()
		if got := gatherWith(t, r, root); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: served\n%+v\nwant\n%+v", c.name, got, want)
		}
		wantOpens := []string{"c.py"}
		if c.version != Version { // the whole row is another version's
			wantOpens = pyscantest.ListPy(t, root)
		}
		if o := opens(); !reflect.DeepEqual(o, wantOpens) {
			t.Errorf("%s: opened %v, want %v", c.name, o, wantOpens)
		}
		if gatherWith(t, r, root); len(opens()) != 0 {
			t.Errorf("%s: the entry was not rebuilt", c.name)
		}
	}
}

// A row that is not JSON at all (a damaged disk, a hand edit) is a miss for
// every file, and the next gather writes a good one.
func TestCacheIgnoresCorruptRow(t *testing.T) {
	root := cachedRepo(t)
	st, db := openStore(t)
	r := New(runners.WithCache(st))
	want := gatherWith(t, r, root)
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Exec(`UPDATE fact_cache SET value = '{"root": ' || char(0) WHERE runner = 'python.index'`); err != nil {
		t.Fatal(err)
	}
	opens := sourcetest.CountOpens(t, root, &openFile)
	if got := gatherWith(t, r, root); !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%+v\nwant\n%+v", got, want)
	}
	if o := opens(); len(o) != len(want) {
		t.Errorf("with a corrupt row the gather opened %v, want every file", o)
	}
	if gatherWith(t, r, root); len(opens()) != 0 {
		t.Error("the corrupt row was not rebuilt")
	}
}

// Files deleted, renamed or replaced by a symlink leave the facts and the
// index; the renamed file's new path is read.
func TestCacheFollowsDeletesRenamesAndSymlinks(t *testing.T) {
	root := cachedRepo(t)
	st, _ := openStore(t)
	r := New(runners.WithCache(st))
	gatherWith(t, r, root)
	stampOf := func(rel string) cache.Stamp {
		info, err := os.Lstat(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		s, _ := cache.StampOf(info)
		return s
	}
	old := map[string]cache.Stamp{"a.py": stampOf("a.py"), "pkg/b.py": stampOf("pkg/b.py"), "c.py": stampOf("c.py")}
	if err := os.Remove(filepath.Join(root, "a.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "pkg/b.py"), filepath.Join(root, "pkg/renamed.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "c.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("empty.py", filepath.Join(root, "c.py")); err != nil {
		t.Fatal(err)
	}
	opens := sourcetest.CountOpens(t, root, &openFile)
	got := gatherWith(t, r, root)
	if o := opens(); !reflect.DeepEqual(o, []string{"pkg/renamed.py"}) {
		t.Errorf("opened %v, want the renamed file only", o)
	}
	if want := fresh(t, root); !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
	ix := cache.LoadIndex(context.Background(), st, Namespace, Version, root)
	for rel, s := range old {
		if _, ok := ix.Lookup(rel, s); ok {
			t.Errorf("%s is still in the index", rel)
		}
	}
}

// Gathers running at once on one runner and store, each loading and saving
// the index, all agree with a fresh scan (run with -race).
func TestCacheConcurrentGathers(t *testing.T) {
	root := cachedRepo(t)
	st, _ := openStore(t)
	r := New(runners.WithCache(st))
	want := fresh(t, root)
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for i := range 8 {
		wg.Go(func() {
			for range 3 {
				ns := r.Gather(context.Background(), runners.NewScope(root, facts.Request{}))
				if ns.Status != facts.StatusOK || !reflect.DeepEqual(ns.Data.(facts.Python).Files, want) {
					errs <- fmt.Sprintf("gather %d: %+v", i, ns)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// BenchmarkGather600 gathers 600 modules of three classes each, uncached and
// warm from the cache: the warm run lstats each file and opens none.
func BenchmarkGather600(b *testing.B) {
	root := sourcetest.TempDir(b)
	for i := range 600 {
		var src strings.Builder
		for c := range 3 {
			fmt.Fprintf(&src, "class Widget%d%d(Base):\n    size = %d\n", i, c, c)
			for m := range 4 {
				fmt.Fprintf(&src, "    def method_%d(self, value):\n        return value + self.size + %d\n", m, m)
			}
		}
		sourcetest.WriteFile(b, root, fmt.Sprintf("pkg%02d/mod%04d.py", i%24, i), src.String())
	}
	settle()
	st, _ := openStore(b)
	for _, c := range []struct {
		name string
		r    *Runner
	}{{"uncached", New()}, {"warm", New(runners.WithCache(st))}} {
		c.r.Gather(context.Background(), runners.NewScope(root, facts.Request{}))
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if ns := c.r.Gather(context.Background(), runners.NewScope(root, facts.Request{})); ns.Status != facts.StatusOK {
					b.Fatal(ns.Reason)
				}
			}
		})
	}
}
