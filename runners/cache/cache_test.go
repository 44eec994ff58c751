package cache

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/store"
)

const shaA = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.OpenMemory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// oldStamp is a stamp whose file last changed an hour before now.
func oldStamp(size int64) Stamp {
	t := time.Now().Add(-time.Hour).UnixNano()
	return Stamp{Dev: 1, Ino: 2, Mode: 0o644, Size: size, MtimeNS: t, CtimeNS: t}
}

func TestIndexRoundTrip(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := oldStamp(6)
	ix := LoadIndex(ctx, st, "files", "1", "/r")
	ix.Record("dir/a b.txt", s, time.Now(), Hit{SHA256: shaA, Token: "1:0"})
	ix.Record("gone.txt", s, time.Now(), Hit{SHA256: shaA, Token: "1:0"})
	if err := ix.Save(ctx); err != nil {
		t.Fatal(err)
	}
	ix = LoadIndex(ctx, st, "files", "1", "/r")
	if h, ok := ix.Lookup("dir/a b.txt", s); !ok || h.SHA256 != shaA || h.Token != "1:0" {
		t.Fatalf("lookup: %+v %v", h, ok)
	}
	// Any stamp field that differs is a miss.
	for _, d := range []func(*Stamp){
		func(x *Stamp) { x.Size++ }, func(x *Stamp) { x.MtimeNS++ }, func(x *Stamp) { x.CtimeNS++ },
		func(x *Stamp) { x.Ino++ }, func(x *Stamp) { x.Dev++ }, func(x *Stamp) { x.Mode = 0o755 },
	} {
		other := s
		d(&other)
		if _, ok := ix.Lookup("dir/a b.txt", other); ok {
			t.Errorf("stamp %+v hit the entry of %+v", other, s)
		}
	}
	// Forget drops an entry for good; another version or root sees nothing.
	ix.Forget("gone.txt")
	if err := ix.Save(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok := LoadIndex(ctx, st, "files", "1", "/r").Lookup("gone.txt", s); ok {
		t.Error("a forgotten entry is back")
	}
	if _, ok := LoadIndex(ctx, st, "files", "2", "/r").Lookup("dir/a b.txt", s); ok {
		t.Error("another runner version used the entry")
	}
	if _, ok := LoadIndex(ctx, st, "files", "1", "/other").Lookup("dir/a b.txt", s); ok {
		t.Error("another root used the entry")
	}
	if _, ok := LoadIndex(ctx, st, "python", "1", "/r").Lookup("dir/a b.txt", s); ok {
		t.Error("another runner used the entry")
	}
}

// Payloads and paths of any UTF-8 text come back with their entries, the
// bytes that frame a row or that JSON must escape included.
func TestIndexPayloads(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := oldStamp(6)
	ix := LoadIndex(ctx, st, "python", "1", "/r")
	text := "12:a b\nc|\"d\" \\ é © \u0080 \x7f \x00 \u2028 <&> 3:x"
	ix.Record("a.py", s, time.Now(), Hit{SHA256: shaA, Payload: text})
	ix.Record("b.py", s, time.Now(), Hit{SHA256: shaA, Token: "t", Payload: "p"})
	ix.Record("c d/\"\\:\n.py", s, time.Now(), Hit{SHA256: shaA, Token: "t"})
	// What a row could not give back unchanged is not recorded.
	ix.Record("bad1.py", s, time.Now(), Hit{SHA256: shaA, Payload: "\xff"})
	ix.Record("bad2.py", s, time.Now(), Hit{SHA256: shaA, Token: "-"})
	ix.Record("bad3.py", s, time.Now(), Hit{SHA256: shaA})
	ix.Record("bad4.py", s, time.Now(), Hit{SHA256: shaA, Token: "a b"})
	ix.Record("bad\xff.py", s, time.Now(), Hit{SHA256: shaA, Token: "t"})
	if err := ix.Save(ctx); err != nil {
		t.Fatal(err)
	}
	ix = LoadIndex(ctx, st, "python", "1", "/r")
	want := map[string]Hit{
		"a.py": {SHA256: shaA, Payload: text}, "b.py": {SHA256: shaA, Token: "t", Payload: "p"}, "c d/\"\\:\n.py": {SHA256: shaA, Token: "t"},
	}
	for p, w := range want {
		if h, ok := ix.Lookup(p, s); !ok || h != w {
			t.Errorf("%q: %+v %v, want %+v", p, h, ok, w)
		}
	}
	if len(all(ix)) != len(want) {
		t.Errorf("entries %v: want %d", all(ix), len(want))
	}
}

// Retain drops the paths a whole-repository listing no longer holds.
func TestIndexRetain(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := oldStamp(6)
	ix := LoadIndex(ctx, st, "python", "1", "/r")
	for _, p := range []string{"kept.py", "gone.py", "renamed.py"} {
		ix.Record(p, s, time.Now(), Hit{SHA256: shaA, Payload: p})
	}
	ix.Retain([]string{"kept.py", "new.py"})
	if err := ix.Save(ctx); err != nil {
		t.Fatal(err)
	}
	ix = LoadIndex(ctx, st, "python", "1", "/r")
	if _, ok := ix.Lookup("kept.py", s); !ok || len(all(ix)) != 1 {
		t.Errorf("entries %v: want kept.py only", all(ix))
	}
}

// A stamp recorded within the file system's timestamp granularity of the
// file's last change may hide a second change: it is never a hit.
func TestRacyEntriesAreReRead(t *testing.T) {
	now := time.Now()
	fresh := Stamp{Size: 1, MtimeNS: now.Add(-10 * time.Millisecond).UnixNano(), CtimeNS: now.Add(-10 * time.Millisecond).UnixNano()}
	if !fresh.Racy(now) {
		t.Error("a change 10 ms before the read is racy")
	}
	if fresh.Racy(now.Add(time.Second)) {
		t.Error("a change 1 s before the read is not racy on a nanosecond file system")
	}
	whole := Stamp{Size: 1, MtimeNS: now.Truncate(time.Second).UnixNano(), CtimeNS: now.Truncate(time.Second).UnixNano()}
	if !whole.Racy(now.Truncate(time.Second).Add(1500 * time.Millisecond)) {
		t.Error("whole-second times mark a coarse file system: 1.5 s is still racy")
	}
	ix := LoadIndex(context.Background(), openStore(t), "files", "1", "/r")
	ix.Record("a", fresh, now, Hit{SHA256: shaA, Token: "1:0"})
	if _, ok := ix.Lookup("a", fresh); ok {
		t.Error("a racy entry was served")
	}
}

// A damaged or foreign row is never trusted: the index is empty or loses the
// damaged lines only, and the next Save replaces it.
func TestDamagedIndexRowsAreIgnored(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := oldStamp(6)
	good := LoadIndex(ctx, st, "files", "1", "/r")
	good.Record("ok.txt", s, time.Now(), Hit{SHA256: shaA, Token: "1:0"})
	if err := good.Save(ctx); err != nil {
		t.Fatal(err)
	}
	n := shardOf("ok.txt")
	key := store.CacheKey{Runner: "files.index", Version: good.version, SHA256: good.key(n)}
	put := func(text string) {
		if err := st.CachePutText(ctx, []store.CacheText{{Key: key, Text: text}}); err != nil {
			t.Fatal(err)
		}
	}
	line := func(sha, tok, path string) string {
		return strings.Join([]string{sha, "1", "2", "420", "6", itoa(s.MtimeNS), itoa(s.CtimeNS), itoa(time.Now().UnixNano()), tok, path}, " ")
	}
	ok := line(shaA, "1:0", "ok.txt")
	head := string(appendField(appendField(nil, "/r"), strconv.Itoa(n)))
	for _, c := range []struct {
		name string
		row  string
	}{
		{"JSON", `["x"]`},
		{"not a row", "garbage"},
		{"another root", row("/elsewhere", n, ok, "")},
		{"bad sha", row("/r", n, line("XYZ", "1:0", "ok.txt"), "")},
		{"short line", row("/r", n, shaA+" 1 2 420 6 ok.txt", "")},
		{"bad number", row("/r", n, strings.Replace(ok, " 420 ", " 4x0 ", 1), "")},
		{"negative size", row("/r", n, strings.Replace(ok, " 6 ", " -6 ", 1), "")},
		{"no facts", row("/r", n, line(shaA, "-", "ok.txt"), "")},
		{"no payload field", row("/r", n, ok)},
		{"frame too long", rawRow("/r", n, "999:"+ok+"0:")},
		{"frame length not canonical", rawRow("/r", n, "0"+strconv.Itoa(len(ok))+":"+ok+"0:")},
		{"checksum does not match", strings.Replace(row("/r", n, ok, ""), " 1:0 ", " 2:0 ", 1)},
		{"no checksum", strings.Replace(row("/r", n, ok, ""), head+"8:", head+"7:", 1)},
		{"another shard's row", row("/r", n+1, ok, "")},
	} {
		put(c.row)
		if _, ok := LoadIndex(ctx, st, "files", "1", "/r").Lookup("ok.txt", s); ok {
			t.Errorf("%s: the damaged row was trusted", c.name)
		}
	}
	// A damaged entry does not spoil the others; a broken frame loses what
	// follows it only.
	var body strings.Builder
	for _, f := range []string{"garbage", "", ok, "", line(shaA, "", "b.txt"), ""} {
		writeField(&body, f)
	}
	put(rawRow("/r", n, body.String()+"5:c.txt"))
	ix := LoadIndex(ctx, st, "files", "1", "/r")
	if _, ok := ix.Lookup("ok.txt", s); !ok || len(all(ix)) != 1 {
		t.Errorf("entries %v: want only ok.txt", all(ix))
	}
	// Rebuilt: the next Save writes a clean row.
	ix.Record("b.txt", s, time.Now(), Hit{SHA256: shaA, Token: "1:0"})
	if err := ix.Save(ctx); err != nil {
		t.Fatal(err)
	}
	if ix := LoadIndex(ctx, st, "files", "1", "/r"); len(all(ix)) != 2 {
		t.Errorf("after the rebuild: %v", all(ix))
	}
}

// row builds the stored shard n of an index from its fields: the root, the
// shard's number, then each entry's line and payload, with the checksum of
// those.
func row(root string, n int, fields ...string) string {
	var b strings.Builder
	for _, f := range fields {
		writeField(&b, f)
	}
	return rawRow(root, n, b.String())
}

// rawRow builds the stored shard n of an index of root whose entries are
// the text body, framed or not, with body's checksum.
func rawRow(root string, n int, body string) string {
	var b strings.Builder
	writeField(&b, root)
	writeField(&b, strconv.Itoa(n))
	writeField(&b, checksum([]byte(body)))
	return b.String() + body
}

// all returns every entry of ix, whichever shard holds it.
func all(ix *Index) map[string]entry {
	out := map[string]entry{}
	for i := range ix.shards {
		maps.Copy(out, ix.shards[i].entries)
	}
	return out
}

func writeField(b *strings.Builder, s string) { b.Write(appendField(nil, s)) }

// Bytes that are not JSON at all never reach the index: the store reports
// them as a miss.
func TestCorruptStoreValueIsAMiss(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "c.db")
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := oldStamp(6)
	ix := LoadIndex(ctx, st, "files", "1", "/r")
	ix.Record("ok.txt", s, time.Now(), Hit{SHA256: shaA, Token: "1:0"})
	if err := ix.Save(ctx); err != nil {
		t.Fatal(err)
	}
	if err := corruptCacheValues(db); err != nil {
		t.Fatal(err)
	}
	if _, ok := LoadIndex(ctx, st, "files", "1", "/r").Lookup("ok.txt", s); ok {
		t.Fatal("a corrupt value was trusted")
	}
}

func TestStampOf(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := StampOf(info)
	if !ok || s.Size != 3 || s.Ino == 0 || s.MtimeNS == 0 || s.CtimeNS == 0 {
		t.Fatalf("stamp %+v %v", s, ok)
	}
	dir, _ := os.Lstat(filepath.Dir(p))
	if _, ok := StampOf(dir); ok {
		t.Error("a directory has no stamp")
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// A root that is not UTF-8 cannot be held by the row unchanged: Save says
// so, and the runner reads the files next time.
func TestNonUTF8RootIsNotSaved(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	ix := LoadIndex(ctx, st, "files", "1", "/r\xff")
	ix.Record("a.txt", oldStamp(6), time.Now(), Hit{SHA256: shaA, Token: "1:0"})
	if err := ix.Save(ctx); !errors.Is(err, errRootNotUTF8) {
		t.Fatalf("Save: %v, want errRootNotUTF8", err)
	}
	if ix := LoadIndex(ctx, st, "files", "1", "/r\xff"); len(all(ix)) != 0 {
		t.Errorf("entries %v", all(ix))
	}
}

// TestIndexOfPathsKeepsTheRest: an index loaded for a few paths reads their
// shards only, and its Save leaves every other shard's row as it was, even
// after a path of an unread shard was recorded in it.
func TestIndexOfPathsKeepsTheRest(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := oldStamp(1)
	full := LoadIndex(ctx, st, "files", "1", "/r")
	var paths []string
	for i := range 200 {
		p := "pkg/f" + strconv.Itoa(i) + ".py"
		paths = append(paths, p)
		full.Record(p, s, time.Now(), Hit{SHA256: shaA, Token: "1:0"})
	}
	if err := full.Save(ctx); err != nil {
		t.Fatal(err)
	}
	some := LoadIndexOf(ctx, st, "files", "1", "/r", paths[:1])
	if _, ok := some.Lookup(paths[0], s); !ok {
		t.Fatalf("%s: not found in the index loaded for it", paths[0])
	}
	loaded := 0
	for _, p := range paths {
		if _, ok := some.Lookup(p, s); ok {
			loaded++
		}
	}
	if loaded == len(paths) || loaded == 0 {
		t.Fatalf("the index of one path holds %d of %d entries: not one shard's", loaded, len(paths))
	}
	other := "elsewhere/new.py"
	for shardOf(other) == shardOf(paths[0]) {
		other = "x" + other
	}
	some.Record(paths[0], s, time.Now(), Hit{SHA256: shaA, Token: "2:0"})
	some.Record(other, s, time.Now(), Hit{SHA256: shaA, Token: "1:0"})
	if err := some.Save(ctx); err != nil {
		t.Fatal(err)
	}
	back := LoadIndex(ctx, st, "files", "1", "/r")
	for _, p := range paths {
		if _, ok := back.Lookup(p, s); !ok {
			t.Errorf("%s: lost by the partial index's save", p)
		}
	}
	if h, _ := back.Lookup(paths[0], s); h.Token != "2:0" {
		t.Errorf("%s: the partial index's change was not saved: %+v", paths[0], h)
	}
}
