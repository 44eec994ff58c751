package cache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/tausik/tausik/store"
)

// recording is a Store that notes the keys of the rows each put wrote.
type recording struct {
	*store.Store
	puts [][]string
}

func (r *recording) CachePutText(ctx context.Context, entries []store.CacheText) error {
	var keys []string
	for _, e := range entries {
		keys = append(keys, e.Key.SHA256)
	}
	r.puts = append(r.puts, keys)
	return r.Store.CachePutText(ctx, entries)
}

// lastPut returns the keys of the last put, or nil when Save wrote nothing
// since the previous call.
func (r *recording) lastPut() []string {
	if len(r.puts) == 0 {
		return nil
	}
	last := r.puts[len(r.puts)-1]
	r.puts = nil
	return last
}

// pathsIn returns n paths that shardOf puts into distinct shards, other
// than those of avoid.
func pathsIn(n int, avoid ...string) []string {
	used := map[int]bool{}
	for _, p := range avoid {
		used[shardOf(p)] = true
	}
	var out []string
	for i := 0; len(out) < n; i++ {
		p := fmt.Sprintf("pkg/f%d.py", i)
		if !used[shardOf(p)] {
			used[shardOf(p)] = true
			out = append(out, p)
		}
	}
	return out
}

// An edit rewrites the row of the path it changed, not the whole index;
// the first Save writes every row, and a Save with nothing changed none.
func TestSaveWritesOnlyChangedShards(t *testing.T) {
	ctx := context.Background()
	st := &recording{Store: openStore(t)}
	s := oldStamp(6)
	ix := LoadIndex(ctx, st, "python", "1", "/r")
	for i := range 500 {
		ix.Record(fmt.Sprintf("pkg/f%d.py", i), s, time.Now(), Hit{SHA256: shaA, Payload: "p"})
	}
	if err := ix.Save(ctx); err != nil {
		t.Fatal(err)
	}
	if got := st.lastPut(); len(got) != shardCount {
		t.Fatalf("the first Save wrote %d rows, want %d", len(got), shardCount)
	}
	ix = LoadIndex(ctx, st, "python", "1", "/r")
	if err := ix.Save(ctx); err != nil || st.lastPut() != nil {
		t.Fatalf("a Save with nothing changed wrote rows (%v)", err)
	}
	two := pathsIn(2)
	ix.Record(two[0], s, time.Now(), Hit{SHA256: shaA, Payload: "edited"})
	if err := ix.Save(ctx); err != nil {
		t.Fatal(err)
	}
	if got := st.lastPut(); len(got) != 1 || got[0] != ix.key(shardOf(two[0])) {
		t.Fatalf("an edit of %s wrote rows %v, want only %s", two[0], got, ix.key(shardOf(two[0])))
	}
	ix.Forget(two[1])
	ix.Retain(allPathsBut(ix, two[0]))
	if err := ix.Save(ctx); err != nil {
		t.Fatal(err)
	}
	if got := st.lastPut(); len(got) != 2 {
		t.Fatalf("dropping two paths of two shards wrote %d rows, want 2", len(got))
	}
	back := all(LoadIndex(ctx, st, "python", "1", "/r"))
	if _, ok := back[two[0]]; ok || len(back) != 498 {
		t.Errorf("after the edits: %d entries, %s kept: %v", len(back), two[0], ok)
	}
}

func allPathsBut(ix *Index, drop string) []string {
	var out []string
	for p := range all(ix) {
		if p != drop {
			out = append(out, p)
		}
	}
	return out
}

// Two evaluations that read the index at once and then edit paths of
// different shards keep both edits.
func TestConcurrentEditsOfOtherShardsBothStay(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := oldStamp(6)
	seed := LoadIndex(ctx, st, "python", "1", "/r")
	seed.Record("base.py", s, time.Now(), Hit{SHA256: shaA, Payload: "p"})
	if err := seed.Save(ctx); err != nil {
		t.Fatal(err)
	}
	a, b := LoadIndex(ctx, st, "python", "1", "/r"), LoadIndex(ctx, st, "python", "1", "/r")
	two := pathsIn(2, "base.py")
	a.Record(two[0], s, time.Now(), Hit{SHA256: shaA, Payload: "a"})
	b.Record(two[1], s, time.Now(), Hit{SHA256: shaA, Payload: "b"})
	if err := a.Save(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Save(ctx); err != nil {
		t.Fatal(err)
	}
	ix := LoadIndex(ctx, st, "python", "1", "/r")
	for _, p := range append(two, "base.py") {
		if _, ok := ix.Lookup(p, s); !ok {
			t.Errorf("%s was lost", p)
		}
	}
}

// An entry stored in a row other than its path's shard was not written
// there by Save: it is dropped, the others of the row kept.
func TestEntryOfAnotherShardIsDropped(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := oldStamp(6)
	ix := LoadIndex(ctx, st, "files", "1", "/r")
	home := "ok.txt"
	stray := pathsIn(1, home)[0]
	line := func(p string) string {
		return fmt.Sprintf("%s 1 2 420 6 %d %d %d 1:0 %s", shaA, s.MtimeNS, s.CtimeNS, time.Now().UnixNano(), p)
	}
	n := shardOf(home)
	text := row("/r", n, line(home), "", line(stray), "")
	if err := st.CachePutText(ctx, []store.CacheText{{Key: store.CacheKey{Runner: "files.index", Version: ix.version, SHA256: ix.key(n)}, Text: text}}); err != nil {
		t.Fatal(err)
	}
	got := all(LoadIndex(ctx, st, "files", "1", "/r"))
	if _, ok := got[stray]; ok || len(got) != 1 {
		t.Errorf("entries %v: want %s only", got, home)
	}
}

// The one row of the earlier layout, under the root's hash, is replaced by
// the first Save of this one, not left in the store for good.
func TestRowOfEarlierLayoutIsReplaced(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	sum := sha256.Sum256([]byte("/r"))
	old := store.CacheKey{Runner: "files.index", Version: "1+index/6", SHA256: hex.EncodeToString(sum[:])}
	if err := st.CachePut(ctx, old, json.RawMessage(`"big"`)); err != nil {
		t.Fatal(err)
	}
	ix := LoadIndex(ctx, st, "files", "1", "/r")
	outside0 := pathsIn(1, "")[0] // shard 0 is that of ""
	ix.Record(outside0, oldStamp(6), time.Now(), Hit{SHA256: shaA, Token: "1:0"})
	if err := ix.Save(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := st.CacheGet(ctx, old); ok || err != nil {
		t.Errorf("the earlier layout's row is still stored (%v)", err)
	}
}
