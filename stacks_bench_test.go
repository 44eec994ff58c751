package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkStackMonorepoCommit is the wall time of a whole `tausik policy
// eval --trigger commit` process on the green monorepo of
// TestStackGatesMonorepo (a TypeScript package, a Rust crate, a Go module,
// a Helm chart, a Dockerfile), every stack gate running its real tool in
// its root: cold (no .tausik: no fact cache, no verdict to reuse; the
// tools' own caches — cargo's target/, golangci-lint's and Go's — as the
// first run left them, as on a developer's machine) and warm (nothing
// changed since an earlier run: every root's run is kept, so no tool
// starts but for the version probes of the run key; see
// docs/command-gates.md). hadolint is switched off by the user tier
// where it is not installed (EXCUSED), so each run passes.
func BenchmarkStackMonorepoCommit(b *testing.B) {
	stackToolsEnv(b)
	bin := buildBinary(b)
	repo := b.TempDir()
	writeMonorepo(b, repo, false)
	if _, err := exec.LookPath("hadolint"); err != nil {
		user := filepath.Join(b.TempDir(), "user.json")
		if err := os.WriteFile(user, []byte(`{"gates": {"hadolint": {"enabled": false}}}`), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Setenv("TAUSIK_USER_CONFIG", user)
	}
	run := func(b *testing.B) time.Duration {
		cmd := exec.Command(bin, "policy", "eval", "--trigger", "commit")
		cmd.Dir = repo
		t0 := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(t0)
		if err != nil {
			b.Fatalf("eval: %v\n%s", err, out)
		}
		return d
	}
	run(b) // the tools' own caches, as a developer's machine has them
	b.Run("cold", func(b *testing.B) {
		var samples []time.Duration
		for b.Loop() {
			b.StopTimer()
			if err := os.RemoveAll(filepath.Join(repo, ".tausik")); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			samples = append(samples, run(b))
		}
		reportPercentiles(b, samples)
	})
	b.Run("warm", func(b *testing.B) {
		run(b)
		var samples []time.Duration
		for b.Loop() {
			samples = append(samples, run(b))
		}
		reportPercentiles(b, samples)
	})
}
