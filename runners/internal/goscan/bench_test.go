package goscan

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

// BenchmarkScanGoroot scans every .go file of the Go installation's src/
// (reading included) with ScanFiles on GOMAXPROCS goroutines: a corpus of
// real Go, testdata with its broken files included.
func BenchmarkScanGoroot(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src")
	var paths []string
	var size int64
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		size += info.Size()
		rel, _ := filepath.Rel(root, p)
		paths = append(paths, filepath.ToSlash(rel))
		return nil
	})
	if err != nil || len(paths) == 0 {
		b.Skipf("SKIP: no Go sources under %s (%v)", root, err)
	}
	b.SetBytes(size)
	cpu0 := cpuTime(b)
	structs := 0
	for b.Loop() {
		files, err := ScanFiles(context.Background(), root, paths)
		if err != nil {
			b.Fatal(err)
		}
		structs = 0
		for _, f := range files {
			structs += len(f.Structs)
		}
	}
	b.ReportMetric(float64(len(paths)), "files")
	b.ReportMetric(float64(structs), "structs")
	b.ReportMetric(float64(cpuTime(b)-cpu0)/1e6/float64(b.N), "cpu-ms/op")
}

// cpuTime is the CPU time (user + system) this process has used: next to
// wall time it shows the work done, which other load does not inflate.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkGatherGoroot gathers the "go" namespace over a copy of
// GOROOT/src, go.mod files included: cold (no fact cache, every file
// read), warm (every file answered from the store's cache, none opened)
// and one-edit (one file changed since the last gather: it alone is read
// again). The listing is not timed.
func BenchmarkGatherGoroot(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src")
	root := b.TempDir()
	edited := ""
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".go") || d.Name() == "go.mod") || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if rel == filepath.Join("fmt", "print.go") {
			edited = filepath.Join(root, rel)
		}
		data, err := os.ReadFile(p)
		if err == nil {
			err = os.MkdirAll(filepath.Join(root, filepath.Dir(rel)), 0o755)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(root, rel), data, 0o644)
		}
		return err
	})
	if err != nil || edited == "" {
		b.Skipf("SKIP: no Go sources under %s (%v)", src, err)
	}
	time.Sleep(150 * time.Millisecond) // past the racy window of the copies
	st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "t.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	gather := func(b *testing.B, r *Runner) {
		b.StopTimer()
		s := runners.NewScope(root, facts.Request{})
		if _, err := s.RepoFiles(context.Background()); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if ns := r.Gather(context.Background(), s); ns.Status != facts.StatusOK {
			b.Fatal(ns.Reason)
		}
	}
	for _, c := range []struct {
		name string
		opts []runners.SourceOption
		edit bool
	}{{"cold", nil, false}, {"warm", []runners.SourceOption{runners.WithCache(st)}, false}, {"one-edit", []runners.SourceOption{runners.WithCache(st)}, true}} {
		b.Run(c.name, func(b *testing.B) {
			r := New(c.opts...)
			gather(b, r) // fills the cache for warm and one-edit
			cpu0, n := cpuTime(b), 0
			for b.Loop() {
				if c.edit {
					b.StopTimer()
					f, err := os.OpenFile(edited, os.O_APPEND|os.O_WRONLY, 0)
					if err == nil {
						_, err = f.WriteString("// edited\n")
						f.Close()
					}
					if err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				gather(b, r)
				n++
			}
			b.ReportMetric(float64(cpuTime(b)-cpu0)/1e6/float64(n), "cpu-ms/op")
		})
	}
}
