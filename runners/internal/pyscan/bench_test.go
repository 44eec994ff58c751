package pyscan

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tausik/tausik/runners/internal/pyscan/pyscantest"
)

// benchCorpus lists the corpus once per benchmark and sums its size.
// Only the CPython benchmark needs an interpreter when $TAUSIK_PY_CORPUS
// names the corpus.
func benchCorpus(b *testing.B, needPython bool) (py, root string, paths []string, size int64, lines int) {
	b.Helper()
	root = os.Getenv("TAUSIK_PY_CORPUS")
	if needPython || root == "" {
		py = refPython(b)
		root = corpusRoot(b, py)
	}
	paths = pyscantest.ListPy(b, root)
	for _, p := range paths {
		data, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			b.Fatal(err)
		}
		size += int64(len(data))
		lines += bytes.Count(data, []byte{'\n'})
	}
	return py, root, paths, size, lines
}

// cpuTime is the CPU time (user + system) this process has used. Next to
// wall time it shows the work done, which other load on the machine does not
// inflate as much.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkStdlibScan scans the whole corpus (reading included) with
// one Scanner.
func BenchmarkStdlibScan(b *testing.B) {
	_, root, paths, size, lines := benchCorpus(b, false)
	b.SetBytes(size)
	b.ResetTimer()
	classes := 0
	cpu0 := cpuTime(b)
	for b.Loop() {
		files := scanFiles(b, root, paths)
		classes = 0
		for _, f := range files {
			classes += len(f.Classes)
		}
	}
	b.ReportMetric((cpuTime(b)-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(len(paths)), "files")
	b.ReportMetric(float64(lines), "lines")
	b.ReportMetric(float64(classes), "classes")
}

// BenchmarkStdlibCPython times the reference script (CPython's ast, one
// process) on the same corpus, so one "go test -bench Stdlib" run prints both.
func BenchmarkStdlibCPython(b *testing.B) {
	py, root, paths, size, lines := benchCorpus(b, true)
	b.SetBytes(size)
	b.ResetTimer()
	var cpu time.Duration
	for b.Loop() {
		cmd := exec.Command(py, refScript, "--bench", root)
		cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
		cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
		if !strings.Contains(string(out), fmt.Sprintf("files=%d ", len(paths))) {
			b.Fatalf("reference summary: %s", out)
		}
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(len(paths)), "files")
	b.ReportMetric(float64(lines), "lines")
}

// BenchmarkScanInMemory scans the corpus from memory on one goroutine: the
// tokenizer and statement scanner alone, without I/O or parallelism.
func BenchmarkScanInMemory(b *testing.B) {
	_, root, paths, size, _ := benchCorpus(b, false)
	srcs := make([][]byte, len(paths))
	for i, p := range paths {
		var err error
		if srcs[i], err = os.ReadFile(filepath.Join(root, p)); err != nil {
			b.Fatal(err)
		}
	}
	sc := NewScanner()
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i, src := range srcs {
			sc.Scan(paths[i], src)
		}
	}
}
