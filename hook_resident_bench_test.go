package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tausik/tausik/cli"
	"github.com/tausik/tausik/internal/hookwire"
)

// BenchmarkHookResident is the wall time of one hook call as a host pays it,
// side by side in one run: the thin client (tausik-hook) answered by a warm
// resident evaluator, the same client with no evaluator yet (cold: it judges
// in process and starts one, which is stopped again before the next call),
// the in-process hook (`tausik hook`), an empty Go program and `opa eval` of
// a one-rule policy as a process (when opa is on PATH); for a scoped Write,
// a harmless Bash and a post-tool-use. A post-tool-use checks the whole
// work tree (the backstop) and lists it (the write findings), so it is
// also timed in a repository of 4,000 files. It reports p50 and p95 per run
// and, at the end, prints them as one table with the machine's load average.
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
	// Git repositories, as an agent's projects are: a hook that ran git
	// would pay for it here.
	root, large := gitProject(b, full, 0), gitProject(b, full, 4000)
	b.Cleanup(func() { stopEvaluator(root); stopEvaluator(large) })
	runs := residentRuns(b, root, large, full, client)
	// The first call in each project starts the evaluator its warm runs use.
	for _, dir := range []string{root, large} {
		start := exec.Command(client, "claude", "pre-tool-use")
		start.Dir, start.Stdin = dir, strings.NewReader(toolPayload(dir, "write"))
		_ = start.Run()
	}
	results := map[string][2]float64{}
	b.Cleanup(func() { printHookTable(os.Stdout, results) })
	for _, r := range runs {
		b.Run(r.name, func(b *testing.B) {
			dir := cmp.Or(r.dir, root)
			if strings.HasPrefix(r.name, "warm") {
				waitEvaluator(b, dir)
			}
			var samples []time.Duration
			for b.Loop() {
				if r.before != nil {
					b.StopTimer()
					r.before()
					b.StartTimer()
				}
				cmd := exec.Command(r.argv[0], r.argv[1:]...)
				cmd.Dir, cmd.Env, cmd.Stdin = dir, r.env, strings.NewReader(r.payload)
				t0 := time.Now()
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%s: %v\n%s", r.name, err, out)
				}
				samples = append(samples, time.Since(t0))
			}
			reportPercentiles(b, samples)
			results[r.name] = percentiles(samples)
		})
	}
}

// gitProject is hookProject as a git repository with one commit; with
// files, that commit first holds that many generated files outside the
// task's scope, four to a directory (1,000 of them for 4,000 files, under
// 100 more: git status reads every one), one in ten a YAML file (the
// stack detection reads each), and the task starts after it, as in a
// repository an agent is given.
func gitProject(b *testing.B, full string, files int) string {
	root := b.TempDir()
	if files == 0 {
		root = hookProject(b, full)
	}
	for i := range files {
		dir := filepath.Join(root, "pkg", fmt.Sprintf("a%03d", i/40), fmt.Sprintf("b%d", i/4%10))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		name, text := fmt.Sprintf("f%d.go", i%4), fmt.Sprintf("package b\n\n// F%d is generated.\nfunc F%d() int { return %d }\n", i, i, i)
		if i%10 == 0 {
			name, text = fmt.Sprintf("f%d.yaml", i%4), fmt.Sprintf("name: f%d\nvalue: %d\n", i, i)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, args := range [][]string{{"git", "init", "-q"}, {"git", "add", "-A"},
		{"git", "-c", "user.name=b", "-c", "user.email=b@example.test", "commit", "-qm", "bench", "--allow-empty"}} {
		run(b, root, args...)
	}
	if files > 0 {
		if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
			b.Fatal(err)
		}
		run(b, root, full, "task", "start", "feat", "--goal", "bench", "--scope", "src/")
	}
	return root
}

// toolPayload is Claude Code's hook payload for a call in project root:
// "write" a Write of src/a.py (in the task's scope), "bash" a harmless
// command, "post" the write's post-tool-use.
func toolPayload(root, kind string) string {
	head := `{"session_id":"s","cwd":"` + root + `","hook_event_name":"PreToolUse",`
	write := head + `"tool_name":"Write","tool_input":{"file_path":"` + filepath.Join(root, "src", "a.py") + `","content":"x = 1\n"}}`
	switch kind {
	case "bash":
		return head + `"tool_name":"Bash","tool_input":{"command":"ls -la src | head"}}`
	case "post":
		return strings.Replace(write, "PreToolUse", "PostToolUse", 1)
	}
	return write
}

// residentRun is one command BenchmarkHookResident times, in dir (the
// small project when "").
type residentRun struct {
	name    string
	argv    []string
	payload string
	env     []string
	before  func()
	dir     string
}

// residentRuns are the commands BenchmarkHookResident times in the small
// project root and the large one, the warm evaluator's write first.
func residentRuns(b *testing.B, root, large, full, client string) []residentRun {
	required := append(os.Environ(), "TAUSIK_HOOKD=require")
	var runs []residentRun
	for _, c := range []struct{ name, event, payload, dir string }{
		{"write", "pre-tool-use", toolPayload(root, "write"), ""},
		{"bash_harmless", "pre-tool-use", toolPayload(root, "bash"), ""},
		{"post", "post-tool-use", toolPayload(root, "post"), ""},
		{"post_4k_files", "post-tool-use", toolPayload(large, "post"), large},
	} {
		runs = append(runs,
			residentRun{"warm_evaluator/" + c.name, []string{client, "claude", c.event}, c.payload, required, nil, c.dir},
			residentRun{"cold/" + c.name, []string{client, "claude", c.event}, c.payload, os.Environ(), func() { stopEvaluator(cmp.Or(c.dir, root)) }, c.dir},
			residentRun{"in_process/" + c.name, []string{full, "hook", "claude", c.event}, c.payload, os.Environ(), nil, c.dir})
	}
	runs = append(runs, residentRun{name: "empty_go", argv: []string{buildEmptyProgram(b)}})
	opa, err := exec.LookPath("opa")
	if err != nil {
		return runs
	}
	policy := filepath.Join(b.TempDir(), "p.rego")
	if err := os.WriteFile(policy, []byte("package p\n\nallow if input.x == 1\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	return append(runs, residentRun{name: "opa_eval", argv: []string{opa, "eval", "-d", policy, "-I", "data.p.allow"}, payload: `{"x":1}`})
}

// percentiles are the p50 and p95 of samples in milliseconds.
func percentiles(samples []time.Duration) [2]float64 {
	s := slices.Clone(samples)
	slices.Sort(s)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return [2]float64{ms(s[len(s)/2]), ms(s[len(s)*95/100])}
}

// printHookTable prints BenchmarkHookResident's figures side by side: per
// call, p50 / p95 in ms of each path, and the warm evaluator's p50 as a
// multiple of the empty Go program's.
func printHookTable(w io.Writer, r map[string][2]float64) {
	cell := func(name string) string {
		v, ok := r[name]
		if !ok {
			return "-"
		}
		return fmt.Sprintf("%.1f / %.1f", v[0], v[1])
	}
	load := "unknown"
	if raw, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(raw)); len(f) >= 3 {
			load = strings.Join(f[:3], " ")
		}
	}
	fmt.Fprintf(w, "\nhook call, wall ms p50 / p95 (load average %s)\n", load)
	fmt.Fprintf(w, "%-14s %-16s %-16s %-18s %s\n", "call", "warm evaluator", "cold (none yet)", "in process", "warm / empty Go")
	empty := r["empty_go"][0]
	for _, c := range []string{"write", "bash_harmless", "post", "post_4k_files"} {
		ratio := "-"
		if v, ok := r["warm_evaluator/"+c]; ok && empty > 0 {
			ratio = fmt.Sprintf("%.1fx", v[0]/empty)
		}
		fmt.Fprintf(w, "%-14s %-16s %-16s %-18s %s\n", c, cell("warm_evaluator/"+c), cell("cold/"+c), cell("in_process/"+c), ratio)
	}
	fmt.Fprintf(w, "%-14s %s\n", "empty Go", cell("empty_go"))
	if _, ok := r["opa_eval"]; ok {
		fmt.Fprintf(w, "%-14s %s\n", "opa eval", cell("opa_eval"))
	} else {
		fmt.Fprintf(w, "%-14s not measured: no opa on PATH\n", "opa eval")
	}
}

// stopEvaluator kills the project's evaluator, if one runs, and waits
// until its lock is free (the kernel frees it when the process dies). It
// reads the pid again each round: an evaluator that has just taken the lock
// may not have written its pid yet.
func stopEvaluator(root string) {
	lock := filepath.Join(root, ".tausik", "hook.lock")
	f, err := os.Open(lock)
	if err != nil {
		return
	}
	defer f.Close()
	for syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		if raw, err := os.ReadFile(lock); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(raw))); err == nil {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
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

// BenchmarkHookEvaluatorCall is one call as the resident evaluator handles
// it, in this process so that -cpuprofile sees it: `tausik hook serve` runs
// here, warm, and each iteration forwards a real payload over its socket,
// as tausik-hook does (the peer check included).
func BenchmarkHookEvaluatorCall(b *testing.B) {
	root := hookProject(b, buildBinary(b))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- cli.Run(ctx, []string{"hook", "serve", "--root", root}, strings.NewReader(""), io.Discard, os.Stderr)
	}()
	b.Cleanup(func() { cancel(); <-done })
	waitEvaluator(b, root)
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	id, err := hookwire.Stat(self)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, event, payload string }{
		{"write", "pre-tool-use", toolPayload(root, "write")},
		{"bash_harmless", "pre-tool-use", toolPayload(root, "bash")},
		{"post", "post-tool-use", toolPayload(root, "post")},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := &hookwire.Request{Host: "claude", Event: c.event, WD: root, Env: os.Environ(), Binary: id, Payload: []byte(c.payload)}
			var samples []time.Duration
			cpu0 := cpuTime(b)
			for b.Loop() {
				t0 := time.Now()
				a, err := hookwire.Forward(hookwire.Socket(root), req, time.Minute)
				if err != nil || a.Code != 0 {
					b.Fatalf("%s: %+v, %v", c.name, a, err)
				}
				samples = append(samples, time.Since(t0))
			}
			// CPU time per call, evaluator and client together: what a
			// loaded machine stretches, but does not change.
			b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/1000/float64(len(samples)), "cpu-ms/op")
			reportPercentiles(b, samples)
		})
	}
}

// cpuTime is the user and system time this process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
