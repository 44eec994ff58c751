package cache

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/store"
)

// benchIndex records n entries whose payloads look like the go and python
// runners' (JSON of a file's classes, quotes and all), of about size bytes
// each: the python stdlib's surface index holds 1,800 entries in 3.9 MB.
func benchIndex(b *testing.B, n, size int) (*Index, []string, []Stamp) {
	b.Helper()
	st, err := store.OpenMemory(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	ix := LoadIndex(context.Background(), st, "surface_go", "1", "/work/src")
	paths := make([]string, n)
	stamps := make([]Stamp, n)
	for i := range n {
		paths[i] = fmt.Sprintf("pkg%d/sub/file_%d.go", i/20, i)
		var p strings.Builder
		fmt.Fprintf(&p, `{"file":{"path":%q,"parsed":true,"error":null,"classes":[`, paths[i])
		for c := 0; p.Len() < size; c++ {
			fmt.Fprintf(&p, `{"name":"Type%d","line":%d,"bases":["io.Reader"],"public":["Read","Close","String"]},`, c, c*10)
		}
		p.WriteString(`{}]}}`)
		stamps[i] = Stamp{Dev: 65024, Ino: uint64(10_000_000 + i), Mode: 0o644, Size: int64(size), MtimeNS: 1_778_312_132_000_000_000, CtimeNS: 1_796_143_426_214_309_904}
		ix.Record(paths[i], stamps[i], time.Unix(0, 1_796_143_598_786_137_608), Hit{SHA256: shaA, Payload: p.String()})
	}
	if err := ix.Save(context.Background()); err != nil {
		b.Fatal(err)
	}
	return ix, paths, stamps
}

// BenchmarkLoadIndex: loading the index of a GOROOT-sized Go tree (7,700
// entries) and of the python stdlib (1,800), store read included.
func BenchmarkLoadIndex(b *testing.B) {
	for _, c := range []struct {
		name       string
		n, payload int
	}{{"go7700", 7700, 900}, {"python1800", 1800, 2100}} {
		b.Run(c.name, func(b *testing.B) {
			ix, paths, stamps := benchIndex(b, c.n, c.payload)
			b.ResetTimer()
			for b.Loop() {
				got := LoadIndex(context.Background(), ix.st, "surface_go", "1", "/work/src")
				if _, ok := got.Lookup(paths[c.n-1], stamps[c.n-1]); !ok || len(all(got)) != c.n {
					b.Fatalf("loaded %d entries, want %d", len(all(got)), c.n)
				}
			}
		})
	}
}

// BenchmarkSaveIndex: writing back the GOROOT-sized index after one entry
// changed.
func BenchmarkSaveIndex(b *testing.B) {
	ix, paths, stamps := benchIndex(b, 7700, 900)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		ix.Record(paths[0], stamps[0], time.Unix(0, int64(1_796_143_598_786_137_608+i)), Hit{SHA256: shaA, Payload: "x"})
		if err := ix.Save(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
