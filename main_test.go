package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
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

// hookProject is a small project with an active task scoped to src/, as a
// pre-write hook sees it in an agent session.
func hookProject(b *testing.B, bin string) string {
	root := b.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, "task", "start", "feat", "--goal", "bench", "--scope", "src/")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("task start: %v\n%s", err, out)
	}
	return root
}

// BenchmarkHookPreToolUse is the wall time of `tausik hook claude
// pre-tool-use` from process start to verdict, as Claude Code pays it before
// every tool call: a Write and a Bash command writing into the scope (parse
// the payload and the command, load the gates, judge scope_write against the
// store, log the decision), and a Bash command that writes nothing (parsed,
// passed without opening the engine).
func BenchmarkHookPreToolUse(b *testing.B) {
	bin := buildBinary(b)
	root := hookProject(b, bin)
	head := `{"session_id":"s","cwd":"` + root + `","hook_event_name":"PreToolUse",`
	for _, c := range []struct{ name, payload string }{
		{"write", head + `"tool_name":"Write","tool_input":{"file_path":"` + filepath.Join(root, "src", "a.py") + `","content":"x = 1\n"}}`},
		{"bash_write", head + `"tool_name":"Bash","tool_input":{"command":"cat > src/a.py <<'EOF'\nx = 1\nEOF"}}`},
		{"bash_harmless", head + `"tool_name":"Bash","tool_input":{"command":"ls -la src | head"}}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			var samples []time.Duration
			for b.Loop() {
				t0 := time.Now()
				cmd := exec.Command(bin, "hook", "claude", "pre-tool-use")
				cmd.Stdin = strings.NewReader(c.payload)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("hook: %v\n%s", err, out)
				}
				samples = append(samples, time.Since(t0))
			}
			reportPercentiles(b, samples)
		})
	}
}

// BenchmarkStartup is what a process pays before it does anything: `tausik
// version` (the Go runtime, package initialisation of tausik and every
// library it links) against an empty Go program built the same way.
func BenchmarkStartup(b *testing.B) {
	empty := buildEmptyProgram(b)
	for _, c := range []struct {
		name string
		argv []string
	}{{"tausik_version", []string{buildBinary(b), "version"}}, {"empty_go", []string{empty}}} {
		b.Run(c.name, func(b *testing.B) {
			var samples []time.Duration
			for b.Loop() {
				t0 := time.Now()
				if out, err := exec.Command(c.argv[0], c.argv[1:]...).CombinedOutput(); err != nil {
					b.Fatalf("%v\n%s", err, out)
				}
				samples = append(samples, time.Since(t0))
			}
			reportPercentiles(b, samples)
		})
	}
}

// buildEmptyProgram builds a Go program that does nothing: the floor of any
// process a hook starts.
func buildEmptyProgram(b *testing.B) string {
	b.Helper()
	empty := filepath.Join(b.TempDir(), "empty")
	src := filepath.Join(b.TempDir(), "main.go")
	if err := os.WriteFile(src, []byte("package main\n\nfunc main() {}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-o", empty, src)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	return empty
}

// BenchmarkMCPPolicyEval is one policy_eval round trip (pre-write, one file)
// on a warm `tausik mcp` server over real stdio, decision logging included.
func BenchmarkMCPPolicyEval(b *testing.B) {
	bin := buildBinary(b)
	root := hookProject(b, bin)
	cmd := exec.Command(bin, "mcp")
	cmd.Dir = root
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { stdin.Close(); _ = cmd.Wait() }()
	rd := bufio.NewReader(stdout)
	roundTrip := func(line string) string {
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			b.Fatal(err)
		}
		for {
			resp, err := rd.ReadString('\n')
			if err != nil {
				b.Fatal(err)
			}
			if strings.Contains(resp, `"id":`) {
				return resp
			}
		}
	}
	roundTrip(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		b.Fatal(err)
	}
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"policy_eval","arguments":{"trigger":"pre-write","files":["src/a.py"]}}}`
	if resp := roundTrip(call); !strings.Contains(resp, `"blocked":false`) {
		b.Fatalf("warm-up: %s", resp)
	}
	var samples []time.Duration
	for b.Loop() {
		t0 := time.Now()
		roundTrip(call)
		samples = append(samples, time.Since(t0))
	}
	reportPercentiles(b, samples)
}

// BenchmarkParityThisRepo is the wall time of a whole `tausik policy eval
// --gate cross_model_parity` process on this repository, which runs
// `tausik init` as the generator of ten hosts: cold (a fresh store, so every
// generator runs in a fresh temp copy of the repository) and warm (the
// generators' results kept from the previous run of an unchanged tree).
func BenchmarkParityThisRepo(b *testing.B) {
	bin := buildBinary(b)
	for _, warm := range []bool{false, true} {
		name := map[bool]string{false: "cold", true: "warm"}[warm]
		b.Run(name, func(b *testing.B) {
			db := filepath.Join(b.TempDir(), "warm.db")
			var samples []time.Duration
			for i := 0; b.Loop(); i++ {
				if !warm {
					db = filepath.Join(b.TempDir(), fmt.Sprintf("cold%d.db", i))
				}
				t0 := time.Now()
				cmd := exec.Command(bin, "policy", "eval", "--trigger", "commit", "--gate", "cross_model_parity")
				cmd.Env = append(os.Environ(), "TAUSIK_DB="+db)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("eval: %v\n%s", err, out)
				}
				samples = append(samples, time.Since(t0))
			}
			reportPercentiles(b, samples)
		})
	}
}
