package cache

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
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

// Payloads of any UTF-8 text come back with their entries. A payload list
// that does not match the entries line for line is dropped whole, and with
// it the entries that had nothing else.
func TestIndexPayloads(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := oldStamp(6)
	ix := LoadIndex(ctx, st, "python", "1", "/r")
	text := "a b\nc|\"d\" \\ é \u2028 <&>"
	ix.Record("a.py", s, time.Now(), Hit{SHA256: shaA, Payload: text})
	ix.Record("b.py", s, time.Now(), Hit{SHA256: shaA, Token: "t", Payload: "p"})
	ix.Record("c.py", s, time.Now(), Hit{SHA256: shaA, Token: "t"})
	// What a row could not give back unchanged is not recorded.
	ix.Record("bad1.py", s, time.Now(), Hit{SHA256: shaA, Payload: "\xff"})
	ix.Record("bad2.py", s, time.Now(), Hit{SHA256: shaA, Token: "-"})
	ix.Record("bad3.py", s, time.Now(), Hit{SHA256: shaA})
	ix.Record("bad\xff.py", s, time.Now(), Hit{SHA256: shaA, Token: "t"})
	if err := ix.Save(ctx); err != nil {
		t.Fatal(err)
	}
	ix = LoadIndex(ctx, st, "python", "1", "/r")
	for p, want := range map[string]Hit{
		"a.py": {SHA256: shaA, Payload: text}, "b.py": {SHA256: shaA, Token: "t", Payload: "p"}, "c.py": {SHA256: shaA, Token: "t"},
	} {
		if h, ok := ix.Lookup(p, s); !ok || h != want {
			t.Errorf("%s: %+v %v, want %+v", p, h, ok, want)
		}
	}
	if len(ix.entries) != 3 {
		t.Errorf("entries %v: want a.py, b.py and c.py only", ix.entries)
	}
	key := store.CacheKey{Runner: "python.index", Version: ix.version, SHA256: ix.key()}
	raw, _, err := st.CacheGet(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	var row indexRow
	if err := json.Unmarshal(raw, &row); err != nil {
		t.Fatal(err)
	}
	row.Payloads = row.Payloads[1:]
	b, _ := json.Marshal(row)
	if err := st.CachePut(ctx, key, b); err != nil {
		t.Fatal(err)
	}
	ix = LoadIndex(ctx, st, "python", "1", "/r")
	if h, ok := ix.Lookup("b.py", s); !ok || h.Payload != "" || h.Token != "t" {
		t.Errorf("b.py: %+v %v: want its token without a payload", h, ok)
	}
	if _, ok := ix.Lookup("a.py", s); ok {
		t.Error("a.py kept an entry without its payload")
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
	if _, ok := ix.Lookup("kept.py", s); !ok || len(ix.entries) != 1 {
		t.Errorf("entries %v: want kept.py only", ix.entries)
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
	key := store.CacheKey{Runner: "files.index", Version: good.version, SHA256: good.key()}
	put := func(v any) {
		b, _ := json.Marshal(v)
		if err := st.CachePut(ctx, key, b); err != nil {
			t.Fatal(err)
		}
	}
	line := func(sha, tok, path string) string {
		return strings.Join([]string{sha, "1", "2", "420", "6", itoa(s.MtimeNS), itoa(s.CtimeNS), itoa(time.Now().UnixNano()), tok, path}, " ")
	}
	for _, c := range []struct {
		name string
		row  any
	}{
		{"not an object", []string{"x"}},
		{"another root", indexRow{Root: "/elsewhere", Entries: []string{line(shaA, "1:0", "ok.txt")}}},
		{"bad sha", indexRow{Root: "/r", Entries: []string{line("XYZ", "1:0", "ok.txt")}}},
		{"short line", indexRow{Root: "/r", Entries: []string{shaA + " 1 2 420 6 ok.txt"}}},
		{"bad number", indexRow{Root: "/r", Entries: []string{strings.Replace(line(shaA, "1:0", "ok.txt"), " 420 ", " 4x0 ", 1)}}},
		{"negative size", indexRow{Root: "/r", Entries: []string{strings.Replace(line(shaA, "1:0", "ok.txt"), " 6 ", " -6 ", 1)}}},
		{"entries not lines", map[string]any{"root": "/r", "entries": line(shaA, "1:0", "ok.txt")}},
	} {
		put(c.row)
		if _, ok := LoadIndex(ctx, st, "files", "1", "/r").Lookup("ok.txt", s); ok {
			t.Errorf("%s: the damaged row was trusted", c.name)
		}
	}
	// One damaged line does not spoil the others.
	put(indexRow{Root: "/r", Entries: []string{"garbage", line(shaA, "1:0", "ok.txt"), line(shaA, "", "b.txt")}})
	ix := LoadIndex(ctx, st, "files", "1", "/r")
	if _, ok := ix.Lookup("ok.txt", s); !ok || len(ix.entries) != 1 {
		t.Errorf("entries %v: want only ok.txt", ix.entries)
	}
	// Rebuilt: the next Save writes a clean row.
	ix.Record("b.txt", s, time.Now(), Hit{SHA256: shaA, Token: "1:0"})
	if err := ix.Save(ctx); err != nil {
		t.Fatal(err)
	}
	if ix := LoadIndex(ctx, st, "files", "1", "/r"); len(ix.entries) != 2 {
		t.Errorf("after the rebuild: %v", ix.entries)
	}
}

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
