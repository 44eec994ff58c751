package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenCodePluginWithNode loads the plugin `tausik init --host opencode`
// writes into Node as OpenCode loads it, and calls its hooks against the
// real tausik binary (through a shell wrapper that only records the argv and
// stdin it passes on): the spawned command and payload are OpenCode's
// contract with `tausik hook opencode`, a refusal throws with tausik's
// reason, any other failure throws (fail closed), and the after hook never
// throws; the write outside the task's scope is denied with the adapter's
// reason and the one inside allowed.
func TestOpenCodePluginWithNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not on PATH; it runs the OpenCode plugin")
	}
	bin := buildBinary(t)
	// HOME is not the project: a hook never takes home (the user tier's
	// .tausik) for a project found above the cwd.
	root, rec, home := t.TempDir(), t.TempDir(), t.TempDir()
	env := append(os.Environ(), "HOME="+home, "TAUSIK_USER_CONFIG=", "TAUSIK_MANAGED_CONFIG=", "REC="+rec, "TAUSIK_REAL="+bin)
	run := func(dir string, args ...string) []byte {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: %v\n%s%s", args, err, out, stderrOf(err))
		}
		return out
	}
	run(root, bin, "task", "start", "feat", "--goal", "work in src", "--scope", "src/")
	wrap := filepath.Join(rec, "wrap.sh")
	writeFile(t, rec, "wrap.sh", "#!/bin/sh\n"+
		"printf 'argv %s\\n' \"$*\" >> \"$REC/log\"\n"+
		"cat > \"$REC/stdin.$$\"\n"+
		"printf 'stdin %s\\n' \"$(cat \"$REC/stdin.$$\")\" >> \"$REC/log\"\n"+
		"exec \"$TAUSIK_REAL\" \"$@\" < \"$REC/stdin.$$\"\n")
	run(root, bin, "init", "--host", "opencode", "--command", "sh "+wrap)
	missing := t.TempDir()
	run(root, bin, "init", "--host", "opencode", "--command", filepath.Join(missing, "tausik"), "--out", missing)

	calls := []map[string]any{
		{"hook": "tool.execute.before", "input": map[string]any{"tool": "write", "sessionID": "ses_1", "callID": "call_1"},
			"output": map[string]any{"args": map[string]any{"filePath": filepath.Join(root, "docs", "x.md"), "content": "x"}}},
		{"hook": "tool.execute.before", "input": map[string]any{"tool": "write", "sessionID": "ses_1", "callID": "call_2"},
			"output": map[string]any{"args": map[string]any{"filePath": filepath.Join(root, "src", "a.py"), "content": "x = 1\n"}}},
		{"hook": "tool.execute.after", "input": map[string]any{"tool": "write", "sessionID": "ses_1", "callID": "call_2"},
			"output": map[string]any{"title": "a.py", "output": "", "metadata": map[string]any{}}},
	}
	callsFile := filepath.Join(rec, "calls.json")
	b, _ := json.Marshal(calls)
	writeFile(t, rec, "calls.json", string(b))
	type result struct {
		Hook    string `json:"hook"`
		Missing bool   `json:"missing"`
		Threw   bool   `json:"threw"`
		Message string `json:"message"`
	}
	harness, _ := filepath.Abs("testdata/opencode/harness.mjs")
	var got []result
	if err := json.Unmarshal(run(root, node, harness, filepath.Join(root, ".opencode/plugins/tausik.js"), root, callsFile), &got); err != nil || len(got) != 3 {
		t.Fatalf("harness: %v %+v", err, got)
	}

	// What the plugin spawned, as the wrapper recorded it.
	log, err := os.ReadFile(filepath.Join(rec, "log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	if len(lines) != 6 {
		t.Fatalf("recorded %d lines, want argv and stdin of 3 calls:\n%s", len(lines), log)
	}
	for i, want := range []struct{ argv, event, call string }{
		{"hook opencode pre-tool-use", "tool.execute.before", "call_1"},
		{"hook opencode pre-tool-use", "tool.execute.before", "call_2"},
		{"hook opencode post-tool-use", "tool.execute.after", "call_2"},
	} {
		if lines[2*i] != "argv "+want.argv {
			t.Errorf("call %d spawned %q, want %q", i, lines[2*i], want.argv)
		}
		var p struct {
			Event   string         `json:"hook_event_name"`
			Tool    string         `json:"tool"`
			Session string         `json:"session_id"`
			Call    string         `json:"call_id"`
			CWD     string         `json:"cwd"`
			Args    map[string]any `json:"args"`
		}
		if err := json.Unmarshal([]byte(strings.TrimPrefix(lines[2*i+1], "stdin ")), &p); err != nil {
			t.Fatalf("call %d stdin %q: %v", i, lines[2*i+1], err)
		}
		if p.Event != want.event || p.Tool != "write" || p.Session != "ses_1" || p.Call != want.call || p.CWD != root {
			t.Errorf("call %d payload %+v", i, p)
		}
		if i < 2 && p.Args["filePath"] == nil {
			t.Errorf("call %d: the tool's args are not in the payload: %+v", i, p)
		}
	}

	if got[2].Threw || got[2].Missing {
		t.Errorf("tool.execute.after must never throw: %+v", got[2])
	}
	if !got[0].Threw || !strings.Contains(got[0].Message, "tausik blocked this tool call") ||
		!strings.Contains(got[0].Message, "docs/x.md") || !strings.Contains(got[0].Message, "scope_write") {
		t.Errorf("a write outside the task's scope must throw tausik's reason: %+v", got[0])
	}
	if got[1].Threw {
		t.Errorf("a write inside the task's scope must pass: %+v", got[1])
	}

	// tausik not there at all: the before hook refuses (fail closed), the
	// after hook still does not throw.
	var gone []result
	if err := json.Unmarshal(run(root, node, harness, filepath.Join(missing, ".opencode/plugins/tausik.js"), root, callsFile), &gone); err != nil || len(gone) != 3 {
		t.Fatalf("harness: %v %+v", err, gone)
	}
	if !gone[0].Threw || !strings.Contains(gone[0].Message, "could not judge") || gone[2].Threw {
		t.Errorf("with no tausik to run: %+v", gone)
	}
}
