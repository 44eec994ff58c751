package store

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// Text values come back as stored, whether JSON or not; CacheGetMany serves
// only those that are JSON, and a value that is not UTF-8 is refused.
var _ = contract("fact_cache_text", func(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t)
	k := CacheKey{Runner: "python.index", Version: "1", SHA256: strings.Repeat("cd", 32)}
	j := CacheKey{Runner: "python.index", Version: "1", SHA256: strings.Repeat("ef", 32)}
	text := "2:/r1:08:0011aabb\x00\"\\\n é 3:x"
	if err := s.CachePutText(ctx, []CacheText{{Key: k, Text: text}, {Key: j, Text: `"json"`}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.CacheGetText(ctx, "python.index", "1", []string{k.SHA256, j.SHA256})
	if err != nil || string(got[k.SHA256]) != text || string(got[j.SHA256]) != `"json"` {
		t.Fatalf("text: %q %v", got, err)
	}
	if got, _ := s.CacheGetText(ctx, "python.index", "2", []string{k.SHA256}); len(got) != 0 {
		t.Fatalf("another version served: %q", got)
	}
	js, err := s.CacheGetMany(ctx, "python.index", "1", []string{k.SHA256, j.SHA256})
	if _, ok := js[k.SHA256]; ok || err != nil || string(js[j.SHA256]) != `"json"` {
		t.Fatalf("CacheGetMany served %q (%v): only the JSON value may be", js, err)
	}
	if err := s.CachePutText(ctx, []CacheText{{Key: k, Text: "ok"}, {Key: j, Text: "\xff"}}); !errors.Is(err, ErrInvalidCacheEntry) {
		t.Fatalf("not UTF-8: %v", err)
	}
	if err := s.CachePutText(ctx, []CacheText{{Key: CacheKey{Runner: "x", Version: "1", SHA256: "XYZ"}, Text: "t"}}); !errors.Is(err, ErrInvalidCacheEntry) {
		t.Fatalf("bad key: %v", err)
	}
	if got, _ := s.CacheGetText(ctx, "python.index", "1", []string{k.SHA256}); string(got[k.SHA256]) != text {
		t.Fatalf("a refused put changed the row: %q", got)
	}
	// A JSON value put as JSON reads back as text unchanged.
	if err := s.CachePut(ctx, k, json.RawMessage(`{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.CacheGetText(ctx, "python.index", "1", []string{k.SHA256}); string(got[k.SHA256]) != `{"a":1}` {
		t.Fatalf("json as text: %q", got)
	}
})
