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
// agent_authority, filesize and memory_route on the text and paths the call
// would leave, task_gate switched on) beside the scope-only hook (the user
// tier switches filesize and memory_route off), for a Write of a 400-line
// file, an Edit of a 2,000-line file and a Bash pipeline writing into the
// scope. It reports the median and p95.
func BenchmarkHookPreWriteGates(b *testing.B) {
	bin := buildBinary(b)
	root := hookProject(b, bin)
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
	// The 2,000-line file is exempt, so the all-gates hook measures the
	// judgement rather than a refusal.
	write("tausik/gates.json", `{"gates": {"task_gate": {"enabled": true},
  "filesize": {"params": {"exempt_paths": {"src/big.py": "generated fixture of the benchmark"}}}}}`)
	scopeOnly := filepath.Join(b.TempDir(), "user.json")
	if err := os.WriteFile(scopeOnly, []byte(`{"gates": {"filesize": {"enabled": false}, "memory_route": {"enabled": false}, "task_gate": {"enabled": false}}}`), 0o644); err != nil {
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
