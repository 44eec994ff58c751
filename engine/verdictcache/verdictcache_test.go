package verdictcache

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oklog/ulid/v2"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/store"
)

// compiled is gate g with the Rego policy src compiled for real.
func compiled(t *testing.T, facts []string, src string) *gate.Gate {
	t.Helper()
	d := &diag.Diagnostics{}
	p := policy.CompileRego(context.Background(), "g", "policy.rego", []byte(src), d)
	if err := d.Err(); err != nil {
		t.Fatal(err)
	}
	g := &gate.Gate{Policy: p}
	g.Name, g.Facts = "g", facts
	return g
}

func TestReusable(t *testing.T) {
	cases := []struct {
		name  string
		facts []string
		body  string
		want  bool
	}{
		{"declared namespace and params", []string{"files"},
			`violations contains {"msg": f.path} if { some f in input.files.files; count(f.path) > input.params.max }`, true},
		{"schema", []string{"files"}, `violations contains {"msg": input.schema} if { input.files.x }`, true},
		{"the request", []string{"files"}, `violations contains {"msg": input.request.task} if { input.files.x }`, false},
		{"a namespace it does not declare", []string{"files"}, `violations contains {"msg": "x"} if { input.git.dirty }`, false},
		{"the whole input", []string{"files"}, `violations contains {"msg": "x"} if { count(input) > 3 }`, false},
	}
	for _, tc := range cases {
		g := compiled(t, tc.facts, "package tausik.gates.g\n\n"+tc.body+"\n")
		if got := Reusable(g); got != tc.want {
			t.Errorf("%s: Reusable = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestKeyCoversItsInputs(t *testing.T) {
	base := func() (*gate.Gate, map[string]any, map[string]string) {
		g := &gate.Gate{Source: "builtin", PolicyDigest: "sha256:aa"}
		g.Name, g.Language, g.Facts = "g", "rego", []string{"files", "content"}
		return g, map[string]any{"max": 3}, map[string]string{"files": "sha256:f1", "content": "sha256:c1", "schema": "sha256:s1", "git": "sha256:g1"}
	}
	key := func(g *gate.Gate, p map[string]any, parts map[string]string) string {
		k, err := Key(g, p, parts)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	k0 := key(base())
	if !strings.HasPrefix(k0, "sha256:") || len(HexOf(k0)) != 64 {
		t.Fatalf("Key = %q, want sha256:<64 hex>", k0)
	}
	if k := key(base()); k != k0 {
		t.Fatalf("the same inputs give %s and %s", k0, k)
	}
	changes := []struct {
		name string
		edit func(*gate.Gate, map[string]any, map[string]string)
		same bool
	}{
		{"gate name", func(g *gate.Gate, _ map[string]any, _ map[string]string) { g.Name = "h" }, false},
		{"source", func(g *gate.Gate, _ map[string]any, _ map[string]string) { g.Source = "tausik/policies/g" }, false},
		{"language", func(g *gate.Gate, _ map[string]any, _ map[string]string) { g.Language = "cel" }, false},
		{"policy digest", func(g *gate.Gate, _ map[string]any, _ map[string]string) { g.PolicyDigest = "sha256:bb" }, false},
		{"a param", func(_ *gate.Gate, p map[string]any, _ map[string]string) { p["max"] = 4 }, false},
		{"a declared namespace", func(_ *gate.Gate, _ map[string]any, f map[string]string) { f["content"] = "sha256:c2" }, false},
		{"the schema", func(_ *gate.Gate, _ map[string]any, f map[string]string) { f["schema"] = "sha256:s2" }, false},
		{"a content glob", func(g *gate.Gate, _ map[string]any, _ map[string]string) { g.Content = []string{"**/*.py"} }, false},
		{"a documents glob", func(g *gate.Gate, _ map[string]any, _ map[string]string) { g.Documents = []string{"*.json"} }, false},
		{"the content size cap", func(g *gate.Gate, _ map[string]any, _ map[string]string) { g.ContentMaxBytes = 1024 }, false},
		{"a namespace it does not declare", func(_ *gate.Gate, _ map[string]any, f map[string]string) { f["git"] = "sha256:g2" }, true},
		{"the description", func(g *gate.Gate, _ map[string]any, _ map[string]string) { g.Description = "other words" }, true},
	}
	for _, c := range changes {
		g, p, parts := base()
		c.edit(g, p, parts)
		if k := key(g, p, parts); (k == k0) != c.same {
			t.Errorf("changing %s: key changed = %v, want %v", c.name, k != k0, !c.same)
		}
	}
	// A declared namespace without a digest is part of the key as such: it
	// is not the key of a gate that does not declare it.
	g, p, parts := base()
	delete(parts, "content")
	declared := key(g, p, parts)
	g.Facts = []string{"files"}
	if declared == k0 || declared == key(g, p, parts) {
		t.Error("a declared namespace with no digest gives the key of one with a digest, or of a gate without it")
	}
}

func TestKeyBadParams(t *testing.T) {
	g := &gate.Gate{}
	g.Name = "g"
	if _, err := Key(g, map[string]any{"f": func() {}}, nil); err == nil {
		t.Error("a param that has no canonical JSON gives a key")
	}
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "tausik.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestIndexAndLookup(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	c := New(st)
	if c == nil {
		t.Fatal("New = nil: the test binary cannot be identified")
	}
	id, _ := BinaryIdentity()
	if c.Version() != "verdict/1+"+id {
		t.Errorf("Version = %q", c.Version())
	}
	k1, k2, k3 := "sha256:"+strings.Repeat("1", 64), "sha256:"+strings.Repeat("2", 64), "sha256:"+strings.Repeat("3", 64)
	dec := ulid.Make().String()
	c.Index(ctx, dec, []string{k1, k2})
	got := c.Lookup(ctx, map[string]string{"a": k1, "b": k2, "c": k3})
	if len(got) != 2 || got["a"] != dec || got["b"] != dec {
		t.Errorf("Lookup = %v, want a and b computed by %s, c a miss", got, dec)
	}
	// Another binary (another version) reuses nothing.
	other := &Cache{st: st, version: "verdict/1+other"}
	if got := other.Lookup(ctx, map[string]string{"a": k1}); len(got) != 0 {
		t.Errorf("another binary's Lookup = %v, want nothing", got)
	}
	// A later decision for the same key replaces the earlier.
	dec2 := ulid.Make().String()
	c.Index(ctx, dec2, []string{k1})
	if got := c.Lookup(ctx, map[string]string{"a": k1}); got["a"] != dec2 {
		t.Errorf("after a second Index: %v, want %s", got, dec2)
	}
}

func TestLookupSkipsEntriesThatDoNotCheckOut(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	c := New(st)
	put := func(hex string, v string) {
		err := st.CachePutMany(ctx, []store.CacheEntry{{Key: store.CacheKey{Runner: Runner, Version: c.Version(), SHA256: hex}, Value: json.RawMessage(v)}})
		if err != nil {
			t.Fatal(err)
		}
	}
	good := ulid.Make().String()
	put(strings.Repeat("a", 64), `{"decision":"not-a-ulid"}`)
	put(strings.Repeat("b", 64), `{"decision":42}`)
	put(strings.Repeat("c", 64), `{"decision":"`+strings.ToLower(good)+`x"}`)
	put(strings.Repeat("d", 64), `{"decision":"`+good+`"}`)
	got := c.Lookup(ctx, map[string]string{
		"bad": "sha256:" + strings.Repeat("a", 64), "type": "sha256:" + strings.Repeat("b", 64),
		"long": "sha256:" + strings.Repeat("c", 64), "good": "sha256:" + strings.Repeat("d", 64)})
	if len(got) != 1 || got["good"] != good {
		t.Errorf("Lookup = %v, want only good", got)
	}
}

func TestIndexNothing(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	var none *Cache
	none.Index(ctx, ulid.Make().String(), []string{"sha256:" + strings.Repeat("1", 64)})
	c := New(st)
	c.Index(ctx, ulid.Make().String(), nil)
	rows, err := st.CacheGetMany(ctx, Runner, c.Version(), []string{strings.Repeat("1", 64)})
	if err != nil || len(rows) != 0 {
		t.Errorf("rows = %v, %v; want none", rows, err)
	}
}

func TestHexOf(t *testing.T) {
	if HexOf("sha256:ab") != "ab" || HexOf("ab") != "ab" {
		t.Errorf("HexOf: %q, %q", HexOf("sha256:ab"), HexOf("ab"))
	}
}
