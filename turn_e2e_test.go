package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// turnProject is a git work tree with a store and an active task feat,
// scoped to src/, whose task-done gates are red: it has no verify run.
func turnProject(t *testing.T, bin string) (root string, env []string) {
	t.Helper()
	root = t.TempDir()
	env = append(os.Environ(), "HOME="+filepath.Join(root, ".home"), "TAUSIK_ROOT=", "CLAUDE_PROJECT_DIR=", "GEMINI_PROJECT_DIR=",
		"QWEN_PROJECT_DIR=", "FACTORY_PROJECT_DIR=", "CURSOR_PROJECT_DIR=")
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src", "a.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runIn(t, root, env, "git", "init", "-q", ".")
	runIn(t, root, env, bin, "task", "start", "feat", "--goal", "add x", "--scope", "src/")
	runIn(t, root, env, bin, "task", "files", "feat", "src/a.py")
	return root, env
}

func runIn(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, errb.Bytes())
	}
	return string(out)
}

// turnHook runs `tausik hook HOST EVENT` with payload and returns its stdout
// and exit code.
func turnHook(t *testing.T, bin, dir string, env []string, payload string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"hook"}, args...)...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = strings.NewReader(payload)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

// stopHost is one host with a stop event: its payload for a session, and
// how its answer says "continue" and "pass".
type stopHost struct {
	name    string
	payload func(root, session string) string
	// reason returns the continue instruction in the answer ("" when the
	// answer does not make the host continue).
	reason func(t *testing.T, out string) string
}

func claudeStop(event string) func(root, session string) string {
	return func(root, session string) string {
		return `{"session_id":"` + session + `","cwd":"` + root + `","hook_event_name":"` + event + `","stop_hook_active":false}`
	}
}

// decodeAnswer reads one JSON object answer; an empty answer is an empty object.
func decodeAnswer(t *testing.T, out string) map[string]any {
	t.Helper()
	m := map[string]any{}
	if strings.TrimSpace(out) == "" {
		return m
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("answer is not one JSON object: %v\n%s", err, out)
	}
	return m
}

func decisionReason(value string) func(t *testing.T, out string) string {
	return func(t *testing.T, out string) string {
		m := decodeAnswer(t, out)
		if m["decision"] != value {
			return ""
		}
		s, _ := m["reason"].(string)
		return s
	}
}

var stopHosts = []stopHost{
	{"claude", claudeStop("Stop"), decisionReason("block")},
	{"codex", claudeStop("Stop"), decisionReason("block")},
	{"factory", claudeStop("SubagentStop"), decisionReason("block")},
	{"qwen", claudeStop("Stop"), decisionReason("block")},
	{"gemini", claudeStop("AfterAgent"), decisionReason("deny")},
	{"cursor", func(root, session string) string {
		return `{"conversation_id":"` + session + `","workspace_roots":["` + root + `"],"hook_event_name":"stop","status":"completed","loop_count":0}`
	}, func(t *testing.T, out string) string {
		s, _ := decodeAnswer(t, out)["followup_message"].(string)
		return s
	}},
}

// TestStopHookEveryHost drives the real binary's stop hook of every host
// that has one: with the task's task-done gates red the host is told to
// continue, with the blocking gate's reason; the fourth refused stop in a
// row of one session passes and its decision carries the note; another
// session has its own count; once the task is green the stop passes.
func TestStopHookEveryHost(t *testing.T) {
	bin := buildBinary(t)
	root, env := turnProject(t, bin)
	for _, h := range stopHosts {
		t.Run(h.name+"/red", func(t *testing.T) {
			session := "s-" + h.name
			for i := 1; i <= 3; i++ {
				out, code := turnHook(t, bin, root, env, h.payload(root, session), h.name, "stop")
				r := h.reason(t, out)
				if code != 0 || !strings.Contains(r, "verify_first") || !strings.Contains(r, "Task feat would not close") {
					t.Fatalf("stop %d: exit %d, want the host told to continue with verify_first's reason; got %q", i, code, out)
				}
			}
			out, code := turnHook(t, bin, root, env, h.payload(root, session), h.name, "stop")
			if code != 0 || h.reason(t, out) != "" {
				t.Fatalf("the 4th refused stop in a row must pass (the bound is 3): exit %d, %q", code, out)
			}
			// The run of refusals starts over after the bound let one through.
			out, _ = turnHook(t, bin, root, env, h.payload(root, session), h.name, "stop")
			if !strings.Contains(h.reason(t, out), "refused stop 1 of 3") {
				t.Fatalf("after a pass the count starts over: %q", out)
			}
			// Another session of the same task is counted apart.
			out, _ = turnHook(t, bin, root, env, h.payload(root, session+"-other"), h.name, "stop")
			if !strings.Contains(h.reason(t, out), "refused stop 1 of 3") {
				t.Fatalf("another session has its own count: %q", out)
			}
		})
	}
	notes := 0
	sc := bufio.NewScanner(strings.NewReader(runIn(t, root, env, bin, "log", "export")))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var ev struct {
			Custom struct {
				Decision struct {
					Blocked bool `json:"blocked"`
					Request struct {
						Trigger string                 `json:"trigger"`
						Turn    *struct{ Note string } `json:"turn"`
					} `json:"request"`
				} `json:"decision"`
			} `json:"custom"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		if d := ev.Custom.Decision; d.Request.Turn != nil && d.Request.Turn.Note != "" {
			if !d.Blocked || d.Request.Trigger != "task-done" {
				t.Fatalf("a stop let through by the bound is a logged blocked task-done decision with the note: %+v", d)
			}
			notes++
		}
	}
	if notes != len(stopHosts) {
		t.Fatalf("want one logged note per host (%d), got %d", len(stopHosts), notes)
	}

	runIn(t, root, env, bin, "key", "init")
	runIn(t, root, env, bin, "verify", "--task", "feat")
	for _, h := range stopHosts {
		t.Run(h.name+"/green", func(t *testing.T) {
			out, code := turnHook(t, bin, root, env, h.payload(root, "green-"+h.name), h.name, "stop")
			if code != 0 || h.reason(t, out) != "" {
				t.Fatalf("a green task's stop passes: exit %d, %q", code, out)
			}
		})
	}
}

// TestSessionStartContextByteStable: two session starts over the same
// state hand the model the same bytes (no clock, no decision id), and a
// change of the task's scope changes them.
func TestSessionStartContextByteStable(t *testing.T) {
	bin := buildBinary(t)
	root, env := turnProject(t, bin)
	payload := func(session, event string) string {
		return `{"session_id":"` + session + `","cwd":"` + root + `","hook_event_name":"` + event + `","source":"startup"}`
	}
	first, code := turnHook(t, bin, root, env, payload("s1", "SessionStart"), "claude", "session-start")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, first)
	}
	second, _ := turnHook(t, bin, root, env, payload("s2", "SessionStart"), "claude", "session-start")
	if first != second {
		t.Fatalf("two session starts over one state differ:\n%s\n%s", first, second)
	}
	ctx, _ := decodeAnswer(t, first)["hookSpecificOutput"].(map[string]any)
	text, _ := ctx["additionalContext"].(string)
	for _, want := range []string{"active task feat — add x", "Scope: src/", "Files: src/a.py", "verify_first"} {
		if !strings.Contains(text, want) {
			t.Fatalf("context lacks %q:\n%s", want, text)
		}
	}
	prompt, _ := turnHook(t, bin, root, env, payload("s1", "UserPromptSubmit"), "claude", "prompt-submit")
	if got := decodeAnswer(t, prompt)["hookSpecificOutput"].(map[string]any)["additionalContext"]; got != text {
		t.Fatalf("a prompt gets the same context as the session start: %q", got)
	}
	runIn(t, root, env, bin, "task", "scope", "feat", "docs/")
	third, _ := turnHook(t, bin, root, env, payload("s1", "SessionStart"), "claude", "session-start")
	if third == first || !strings.Contains(third, "Scope: docs/, src/") {
		t.Fatalf("a widened scope must change the context:\n%s", third)
	}
}

// TestPostWriteWarnings: after a write, the warn gates' findings on the
// written file reach the model as additionalContext (tdd_order, switched
// on by the project: code changed with no test); a write they find nothing
// in gets no answer.
func TestPostWriteWarnings(t *testing.T) {
	bin := buildBinary(t)
	root := t.TempDir()
	env := append(os.Environ(), "HOME="+filepath.Join(root, ".home"), "TAUSIK_ROOT=", "GEMINI_PROJECT_DIR=", "CLAUDE_PROJECT_DIR=")
	for rel, text := range map[string]string{"tausik/gates.json": `{"gates":{"tdd_order":{"enabled":true}}}`,
		"src/b.py": "def f():\n    return 1\n", "src/notes.txt": "notes\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runIn(t, root, env, "git", "init", "-q", ".")
	runIn(t, root, env, bin, "task", "start", "feat", "--goal", "add f", "--scope", "src/")
	payload := func(path string) string {
		return `{"session_id":"s1","cwd":"` + root + `","hook_event_name":"AfterTool","tool_name":"write_file","tool_input":{"file_path":"` + path + `","content":"x"}}`
	}
	if out, code := turnHook(t, bin, root, env, payload("src/notes.txt"), "gemini", "post-tool-use"); code != 0 || out != "" {
		t.Fatalf("nothing to warn about: exit %d, want no answer, got %q", code, out)
	}
	out, code := turnHook(t, bin, root, env, payload("src/b.py"), "gemini", "post-tool-use")
	ctx, _ := decodeAnswer(t, out)["hookSpecificOutput"].(map[string]any)
	if text, _ := ctx["additionalContext"].(string); code != 0 || ctx["hookEventName"] != "AfterTool" || !strings.Contains(text, "tdd_order: src/b.py") {
		t.Fatalf("exit %d, want tdd_order's warning on src/b.py as AfterTool context; got %q", code, out)
	}
}
