package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// genPythonRepo writes a git repository of n lint-clean Python modules (a
// few classes of a few methods each, ~1.5 KiB) and commits it. The files'
// times are an hour old and the benchmark waits out the cache's racy window,
// as for any checkout that was not written in the last instant.
func genPythonRepo(b *testing.B, n int) string {
	b.Helper()
	root := b.TempDir()
	for i := range n {
		var src strings.Builder
		fmt.Fprintf(&src, "\"\"\"Module %d.\"\"\"\n\n", i)
		for c := range 3 {
			fmt.Fprintf(&src, "\nclass Widget%d%d:\n    \"\"\"A widget.\"\"\"\n\n    size = %d\n", i, c, c)
			for m := range 4 {
				fmt.Fprintf(&src, "\n    def method_%d(self, value):\n        return value + self.size + %d\n", m, m)
			}
			src.WriteString("\n")
		}
		p := filepath.Join(root, fmt.Sprintf("pkg%02d", i%24), fmt.Sprintf("mod%04d.py", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.TrimRight(src.String(), "\n")+"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		old := time.Now().Add(-time.Hour)
		if err := os.Chtimes(p, old, old); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, "tausik"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "tausik", "gates.json"), []byte("{}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@example.test", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@example.test")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	time.Sleep(200 * time.Millisecond)
	return root
}

// BenchmarkEvalCommit600 is the wall time of a whole `tausik policy eval
// --trigger commit` process on a 600-module Python repository, from start to
// exit: cold (no .tausik yet: the store is created and every file read), warm
// (nothing changed since an earlier run: facts come from the fact cache and
// verdicts are reused) and edit_body / edit_class (one module edited since).
// Variants:
//
//   - gates: the built-in gates that listen to commit, with ruff switched off
//     by the user tier — what tausik itself costs;
//   - files_git: only filesize and memory_route, the gates on the fs (cached)
//     and git runners;
//   - ruff: every gate with ruff on, run through testdata/ruff (the WebAssembly
//     build on Node: far slower than the native ruff a user would have).
func BenchmarkEvalCommit600(b *testing.B) {
	bin := buildBinary(b)
	repo := genPythonRepo(b, 600)
	user := filepath.Join(b.TempDir(), "user.json")
	if err := os.WriteFile(user, []byte(`{"gates": {"ruff": {"enabled": false}}}`), 0o644); err != nil {
		b.Fatal(err)
	}
	shim, _ := filepath.Abs(filepath.Join("testdata", "ruff"))
	type variant struct {
		name string
		env  []string
		args []string
	}
	variants := []variant{
		{"gates", []string{"TAUSIK_USER_CONFIG=" + user}, nil},
		{"files_git", nil, []string{"--gate", "filesize", "--gate", "memory_route"}},
	}
	if _, err := os.Stat(filepath.Join(shim, "node_modules")); err == nil {
		variants = append(variants, variant{"ruff", []string{"TAUSIK_USER_CONFIG=" + filepath.Join(b.TempDir(), "none.json"), "PATH=" + shim + string(os.PathListSeparator) + os.Getenv("PATH")}, nil})
	}
	run := func(b *testing.B, env, args []string) time.Duration {
		cmd := exec.Command(bin, append([]string{"policy", "eval", "--trigger", "commit"}, args...)...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), env...)
		t0 := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(t0)
		if err != nil {
			b.Fatalf("eval: %v\n%s", err, out)
		}
		return d
	}
	for _, v := range variants {
		b.Run(v.name+"/cold", func(b *testing.B) {
			var samples []time.Duration
			for b.Loop() {
				b.StopTimer()
				if err := os.RemoveAll(filepath.Join(repo, ".tausik")); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				samples = append(samples, run(b, v.env, v.args))
			}
			reportPercentiles(b, samples)
		})
		b.Run(v.name+"/warm", func(b *testing.B) {
			run(b, v.env, v.args)
			var samples []time.Duration
			for b.Loop() {
				samples = append(samples, run(b, v.env, v.args))
			}
			reportPercentiles(b, samples)
		})
		// One module edited before each run, as before a commit, its facts
		// read again: edit_body changes a method's body (the class facts
		// stay the same, so class_surface's verdict is reused while the
		// gates over files and git status are evaluated), edit_class adds a
		// class (every gate is evaluated).
		for _, edit := range []struct {
			name string
			src  func(orig string, n int) string
		}{
			{"edit_body", func(orig string, n int) string { return strings.Replace(orig, "+ 0\n", fmt.Sprintf("+ %d\n", n+1), 1) }},
			{"edit_class", func(orig string, n int) string {
				return fmt.Sprintf("%s\n\nclass Added:\n    def method_%d(self):\n        return 1\n", strings.TrimRight(orig, "\n"), n)
			}},
		} {
			b.Run(v.name+"/"+edit.name, func(b *testing.B) {
				edited := filepath.Join(repo, "pkg00", "mod0000.py")
				orig, err := os.ReadFile(edited)
				if err != nil {
					b.Fatal(err)
				}
				defer os.WriteFile(edited, orig, 0o644)
				run(b, v.env, v.args)
				var samples []time.Duration
				n := 0
				for b.Loop() {
					b.StopTimer()
					n++
					if err := os.WriteFile(edited, []byte(edit.src(string(orig), n)), 0o644); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					samples = append(samples, run(b, v.env, v.args))
				}
				reportPercentiles(b, samples)
			})
		}
	}
}
