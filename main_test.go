package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// buildBinary builds tausik into a temp dir for process-level tests and
// benchmarks.
func buildBinary(b testing.TB) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "tausik")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// BenchmarkProcessEvalThisRepo is the wall time of a whole `tausik policy
// eval --trigger commit` process judging this repository, start to exit, as
// CI and a developer's pre-commit run pay it. It reports p50 and p95 too.
func BenchmarkProcessEvalThisRepo(b *testing.B) {
	bin := buildBinary(b)
	var samples []time.Duration
	for b.Loop() {
		t0 := time.Now()
		cmd := exec.Command(bin, "policy", "eval", "--trigger", "commit")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("eval: %v\n%s", err, out)
		}
		samples = append(samples, time.Since(t0))
	}
	reportPercentiles(b, samples)
}

func reportPercentiles(b *testing.B, samples []time.Duration) {
	if len(samples) == 0 {
		return
	}
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	b.ReportMetric(float64(samples[len(samples)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(samples[len(samples)*95/100].Microseconds())/1000, "p95-ms")
}
