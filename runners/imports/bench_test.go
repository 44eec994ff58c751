package imports

import (
	"context"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/internal/sourcetest"
	"github.com/tausik/tausik/store"
)

// BenchmarkGather10k gathers the imports namespace over sourcetest.Tree10k
// (10,000 files): cold, no fact cache, every file read; warm, from a cache
// filled by an earlier run, no file that did not change opened. The repo
// listing is not timed (a fresh scope lists once per evaluation either way).
func BenchmarkGather10k(b *testing.B) {
	root := sourcetest.Tree10k(b)
	scope := func() *runners.Scope {
		s := runners.NewScope(root, facts.Request{})
		if _, err := s.RepoFiles(context.Background()); err != nil {
			b.Fatal(err)
		}
		return s
	}
	run := func(b *testing.B, r *Runner) {
		n := 0
		for b.Loop() {
			b.StopTimer()
			s := scope()
			b.StartTimer()
			ns := r.Gather(context.Background(), s)
			if ns.Status != facts.StatusOK {
				b.Fatal(ns.Reason)
			}
			n = len(ns.Data.(facts.Imports).Files)
		}
		b.ReportMetric(float64(n), "files")
	}
	b.Run("cold", func(b *testing.B) { run(b, New()) })
	b.Run("warm", func(b *testing.B) {
		st, err := store.Open(context.Background(), b.TempDir()+"/t.db")
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		r := New(runners.WithCache(st), runners.WithClock(func() time.Time { return time.Now().Add(time.Minute) }))
		r.Gather(context.Background(), scope())
		run(b, r)
	})
}
