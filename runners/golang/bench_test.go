package golang

import (
	"context"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
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
