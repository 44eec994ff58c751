package sourcetest

import (
	"context"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

// BenchGather10k benchmarks a source runner over Tree10k (10,000 files):
// cold, no fact cache, every file read; warm, from a cache filled by an
// earlier run, no file that did not change opened. globs, when not nil,
// is the scope's Globs; newRunner builds the runner with the options given
// and files counts the files one gather listed. The repo listing is not
// timed (a fresh scope lists once per evaluation either way).
func BenchGather10k(b *testing.B, globs map[string][]string, newRunner func(...runners.SourceOption) runners.Runner, files func(facts.Namespace) int) {
	root := Tree10k(b)
	scope := func() *runners.Scope {
		s := runners.NewScope(root, facts.Request{})
		if globs != nil {
			s.Globs = globs
		}
		if _, err := s.RepoFiles(context.Background()); err != nil {
			b.Fatal(err)
		}
		return s
	}
	run := func(b *testing.B, r runners.Runner) {
		n := 0
		for b.Loop() {
			b.StopTimer()
			s := scope()
			b.StartTimer()
			ns := r.Gather(context.Background(), s)
			if ns.Status != facts.StatusOK {
				b.Fatal(ns.Reason)
			}
			n = files(ns)
		}
		b.ReportMetric(float64(n), "files")
	}
	b.Run("cold", func(b *testing.B) { run(b, newRunner()) })
	b.Run("warm", func(b *testing.B) {
		st, err := store.Open(context.Background(), b.TempDir()+"/t.db")
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		r := newRunner(runners.WithCache(st), runners.WithClock(func() time.Time { return time.Now().Add(time.Minute) }))
		r.Gather(context.Background(), scope())
		run(b, r)
	})
}
