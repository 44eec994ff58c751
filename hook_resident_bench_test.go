package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkHookResident is the wall time of one hook call as a host pays it,
// side by side in one run: the thin client (tausik-hook) answered by a warm
// resident evaluator, the same client with no evaluator yet (cold: it judges
// in process and starts one, which is stopped again before the next call),
// the in-process hook (`tausik hook`), an empty Go program and `opa eval` of
// a one-rule policy as a process; for a scoped Write, a harmless Bash and a
// post-tool-use. It reports p50 and p95.
func BenchmarkHookResident(b *testing.B) {
	dir := b.TempDir()
	full, client := filepath.Join(dir, "tausik"), filepath.Join(dir, "tausik-hook")
	for pkg, out := range map[string]string{".": full, "./cmd/tausik-hook": client} {
		cmd := exec.Command("go", "build", "-o", out, pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if o, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("build %s: %v\n%s", pkg, err, o)
		}
	}
	root := hookProject(b, full)
	b.Cleanup(func() { stopEvaluator(root) })
	head := `{"session_id":"s","cwd":"` + root + `","hook_event_name":"PreToolUse",`
	write := head + `"tool_name":"Write","tool_input":{"file_path":"` + filepath.Join(root, "src", "a.py") + `","content":"x = 1\n"}}`
	bash := head + `"tool_name":"Bash","tool_input":{"command":"ls -la src | head"}}`
	post := strings.Replace(write, "PreToolUse", "PostToolUse", 1)
	type run struct {
		name    string
		argv    []string
		payload string
		env     []string
		before  func()
	}
	required := append(os.Environ(), "TAUSIK_HOOKD=require")
	var runs []run
	for _, c := range []struct{ name, event, payload string }{
		{"write", "pre-tool-use", write}, {"bash_harmless", "pre-tool-use", bash}, {"post", "post-tool-use", post},
	} {
		runs = append(runs,
			run{"warm_evaluator/" + c.name, []string{client, "claude", c.event}, c.payload, required, nil},
			run{"cold/" + c.name, []string{client, "claude", c.event}, c.payload, os.Environ(), func() { stopEvaluator(root) }},
			run{"in_process/" + c.name, []string{full, "hook", "claude", c.event}, c.payload, os.Environ(), nil})
	}
	runs = append(runs, run{name: "empty_go", argv: []string{buildEmptyProgram(b)}})
	policy := filepath.Join(dir, "p.rego")
	if err := os.WriteFile(policy, []byte("package p\n\nallow if input.x == 1\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	runs = append(runs, run{name: "opa_eval", argv: []string{buildOPA(b), "eval", "-d", policy, "-I", "data.p.allow"}, payload: `{"x":1}`})
	// The first call starts the evaluator the warm runs use.
	start := exec.Command(client, "claude", "pre-tool-use")
	start.Dir, start.Stdin = root, strings.NewReader(write)
	_ = start.Run()
	for _, r := range runs {
		b.Run(r.name, func(b *testing.B) {
			if strings.HasPrefix(r.name, "warm") {
				waitEvaluator(b, root)
			}
			var samples []time.Duration
			for b.Loop() {
				if r.before != nil {
					b.StopTimer()
					r.before()
					b.StartTimer()
				}
				cmd := exec.Command(r.argv[0], r.argv[1:]...)
				cmd.Dir, cmd.Env, cmd.Stdin = root, r.env, strings.NewReader(r.payload)
				t0 := time.Now()
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%s: %v\n%s", r.name, err, out)
				}
				samples = append(samples, time.Since(t0))
			}
			reportPercentiles(b, samples)
		})
	}
}

// buildOPA installs the OPA release tausik links, from the Go module proxy.
func buildOPA(b *testing.B) string {
	bin := b.TempDir()
	cmd := exec.Command("go", "install", "github.com/open-policy-agent/opa@v1.22.3")
	cmd.Env = append(os.Environ(), "GOBIN="+bin, "CGO_ENABLED=0", "GOFLAGS=-buildvcs=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go install opa: %v\n%s", err, out)
	}
	return filepath.Join(bin, "opa")
}

// stopEvaluator kills the project's evaluator, if one runs, and waits
// until its lock is free (the kernel frees it when the process dies).
func stopEvaluator(root string) {
	lock := filepath.Join(root, ".tausik", "hook.lock")
	raw, err := os.ReadFile(lock)
	if err != nil {
		return
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(string(raw))); err == nil {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	f, err := os.Open(lock)
	if err != nil {
		return
	}
	defer f.Close()
	for syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		time.Sleep(time.Millisecond)
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}

// waitEvaluator waits until an evaluator answers on root's socket.
func waitEvaluator(b *testing.B, root string) {
	for i := 0; i < 60000; i++ {
		if c, err := (&net.Dialer{}).Dial("unix", filepath.Join(root, ".tausik", "hook.sock")); err == nil {
			c.Close()
			return
		}
		time.Sleep(time.Millisecond)
	}
	b.Fatal("no evaluator started")
}
