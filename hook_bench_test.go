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

// BenchmarkHookPreWriteGates is the wall time of `tausik hook claude
// pre-tool-use` with every built-in pre-write gate on (scope_write,
// agent_authority, bash_firewall, secret_scan, filesize and memory_route on
// the text and paths the call would leave, and task_gate and git_push_gate
// switched on) beside the scope-only hook (the user tier switches every
// other pre-write gate off: scope_write and agent_authority judge), for a
// Write of a 400-line file, an Edit of a 2,000-line file and a Bash pipeline
// writing into the scope, in a git repository with one commit. It reports
// the median and p95.
func BenchmarkHookPreWriteGates(b *testing.B) {
	bin := buildBinary(b)
	root := hookProject(b, bin)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=b", "-c", "user.email=b@example.test", "commit", "-qm", "bench", "--allow-empty"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	var big, four strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&big, "line_%d = %d\n", i, i)
	}
	for i := range 400 {
		fmt.Fprintf(&four, "x_%d = %d\\n", i, i)
	}
	write := func(rel, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("src/big.py", big.String())
	// Another judged file, so the exemption below does not leave out every
	// file filesize judges (which the engine refuses).
	write("src/keep.py", "x = 1\n")
	// The 2,000-line file is exempt, so the all-gates hook measures the
	// judgement rather than a refusal.
	write("tausik/gates.json", `{"gates": {"task_gate": {"enabled": true}, "git_push_gate": {"enabled": true},
  "filesize": {"params": {"exempt_paths": {"src/big.py": "generated fixture of the benchmark"}}}}}`)
	scopeOnly := filepath.Join(b.TempDir(), "user.json")
	if err := os.WriteFile(scopeOnly, []byte(`{"gates": {"filesize": {"enabled": false}, "memory_route": {"enabled": false}, "task_gate": {"enabled": false},
  "git_push_gate": {"enabled": false}, "bash_firewall": {"enabled": false}, "secret_scan": {"enabled": false}}}`), 0o644); err != nil {
		b.Fatal(err)
	}
	head := `{"session_id":"s","cwd":"` + root + `","hook_event_name":"PreToolUse",`
	calls := []struct{ name, payload string }{
		{"write400", head + `"tool_name":"Write","tool_input":{"file_path":"` + filepath.Join(root, "src", "w.py") + `","content":"` + four.String() + `"}}`},
		{"edit2000", head + `"tool_name":"Edit","tool_input":{"file_path":"` + filepath.Join(root, "src", "big.py") + `","old_string":"line_1999 = 1999","new_string":"line_1999 = 0"}}`},
		{"bash_pipeline", head + `"tool_name":"Bash","tool_input":{"command":"grep -n line src/*.py | sort -t: -k2 | uniq -c > src/counts.txt"}}`},
	}
	for _, mode := range []struct{ name, userConfig string }{{"all_gates", ""}, {"scope_only", scopeOnly}} {
		for _, c := range calls {
			b.Run(mode.name+"/"+c.name, func(b *testing.B) {
				var samples []time.Duration
				for b.Loop() {
					t0 := time.Now()
					cmd := exec.Command(bin, "hook", "claude", "pre-tool-use")
					cmd.Env = append(os.Environ(), "TAUSIK_USER_CONFIG="+mode.userConfig)
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
}
