package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pythonRepo writes a git repository of n Python files: small modules of
// one narrow class each, with every 400th file over 500 lines and every
// 400th (offset) a god class of 70 methods, as a legacy project has.
func pythonRepo(b *testing.B, n int) string {
	b.Helper()
	root := b.TempDir()
	for i := range n {
		var body strings.Builder
		switch {
		case i%400 == 7:
			body.WriteString(strings.Repeat("x = 1\n", 620))
		case i%400 == 11:
			body.WriteString("class God:\n")
			for m := range 70 {
				fmt.Fprintf(&body, "    def m%d(self):\n        return %d\n", m, m)
			}
		default:
			fmt.Fprintf(&body, "class Mod%d:\n", i)
			for m := range 5 {
				fmt.Fprintf(&body, "    def m%d(self):\n        return %d\n", m, m)
			}
		}
		p := filepath.Join(root, "pkg", fmt.Sprintf("d%02d", i%50), fmt.Sprintf("m%04d.py", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "legacy"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.test", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.test")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return root
}

// BenchmarkBaseline2000 times `tausik baseline` and a baselined `tausik
// policy eval --trigger commit` (whole tree) in-process on a 2,000-file
// Python repository: cold (no .tausik store, so no verdict is reused) and
// warm (the store of the previous run, as the next commit finds it).
func BenchmarkBaseline2000(b *testing.B) {
	root := pythonRepo(b, 2000)
	b.Setenv("HOME", b.TempDir())
	store := filepath.Join(root, ".tausik")
	run := func(b *testing.B, args ...string) {
		if code, out, errOut := tausikIn(b, root, args...); code != 0 && code != 1 {
			b.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	cold := func(b *testing.B, args ...string) {
		for b.Loop() {
			b.StopTimer()
			if err := os.RemoveAll(store); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			run(b, args...)
		}
	}
	warm := func(b *testing.B, args ...string) {
		run(b, args...)
		for b.Loop() {
			run(b, args...)
		}
	}
	b.Run("baseline/cold", func(b *testing.B) { cold(b, "baseline", "--force") })
	b.Run("baseline/warm", func(b *testing.B) { warm(b, "baseline", "--force") })
	b.Run("eval/cold", func(b *testing.B) { cold(b, "policy", "eval", "--trigger", "commit") })
	b.Run("eval/warm", func(b *testing.B) { warm(b, "policy", "eval", "--trigger", "commit") })
}
