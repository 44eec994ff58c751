package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/cli"
)

// backstopRepo is a git repository with src/, other/, a script and a
// Makefile that write outside src/, and a file that is dirty before any
// task starts.
func backstopRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"src/a.txt":   "a\n",
		"other/keep":  "k1\n",
		"tools/w.sh":  "echo x > other/y\n",
		"Makefile":    "gen:\n\techo generated > other/gen.txt\n",
		".gitignore":  "build/\n",
		"other/moved": "m\n",
	}
	for p, text := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sh(t, root, "git", "init", "-q")
	sh(t, root, "git", "add", ".")
	sh(t, root, "git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
	write(t, root, "other/keep", "k2 dirty before the task\n")
	return root
}

func sh(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
}

func write(t *testing.T, root, p, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, p), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func tausik(t *testing.T, root, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Run(context.Background(), append([]string{"--root", root}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// postBash is Claude Code's PostToolUse payload after a Bash call.
func postBash(root, command string) string {
	b, _ := json.Marshal(map[string]any{
		"session_id": "s1", "cwd": root, "hook_event_name": "PostToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": command}, "tool_response": map[string]any{"stdout": ""},
	})
	return string(b)
}

// postReport runs the post-tool-use hook and returns the reason Claude
// Code would feed the model ("" when the hook stayed silent).
func postReport(t *testing.T, root, command string) string {
	t.Helper()
	code, stdout, stderr := tausik(t, root, postBash(root, command), "hook", "claude", "post-tool-use")
	if code != 0 {
		t.Fatalf("post-tool-use exit %d: %s", code, stderr)
	}
	if strings.TrimSpace(stdout) == "" {
		return ""
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(stdout), &m); err != nil || m["decision"] != "block" {
		t.Fatalf("post-tool-use stdout %q: want {\"decision\":\"block\",…} (%v)", stdout, err)
	}
	r, _ := m["reason"].(string)
	return r
}

// TestBackstopCatchesWhatNoParserSees is the attack: a script and a make
// target, run inside a task scoped to src/, write outside it. The
// post-tool-use hook reports each path right after the call, task done and
// a commit evaluation stay blocked until the change is reverted, and what
// was dirty before the task is not the task's.
func TestBackstopCatchesWhatNoParserSees(t *testing.T) {
	root := backstopRepo(t)
	if code, _, stderr := tausik(t, root, "", "task", "start", "feat", "--goal", "work in src", "--scope", "src/", "--files", filepath.Join(root, "src/a.txt")); code != 0 {
		t.Fatalf("task start: %d %s", code, stderr)
	}
	if r := postReport(t, root, "ls"); r != "" {
		t.Fatalf("nothing changed since the start, yet: %s", r)
	}
	write(t, root, "src/a.txt", "in scope\n")
	sh(t, root, "bash", "-c", "bash tools/w.sh")
	r := postReport(t, root, "bash tools/w.sh")
	for _, want := range []string{"other/y was created since task feat started", "revert this change", "ask a person to widen"} {
		if !strings.Contains(r, want) {
			t.Errorf("post-tool-use reason lacks %q:\n%s", want, r)
		}
	}
	if strings.Contains(r, "src/a.txt") || strings.Contains(r, "other/keep") || strings.Contains(r, "tausik task scope") {
		t.Errorf("reason names an in-scope or pre-existing change, or the widening command:\n%s", r)
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatalf("make is not installed (apt-get install make): %v", err)
	}
	sh(t, root, "make", "-s", "gen")
	if r := postReport(t, root, "make gen"); !strings.Contains(r, "other/gen.txt was created") {
		t.Errorf("make's write not reported:\n%s", r)
	}
	// Dirty before the start and changed again: the task's change.
	write(t, root, "other/keep", "k3 during the task\n")
	sh(t, root, "git", "mv", "other/moved", "src/moved")
	r = postReport(t, root, "edit")
	for _, want := range []string{"other/keep was modified", "other/moved was renamed (other side: src/moved)"} {
		if !strings.Contains(r, want) {
			t.Errorf("reason lacks %q:\n%s", want, r)
		}
	}
	code, stdout, _ := tausik(t, root, "", "task", "done", "feat")
	if code != 1 || !strings.Contains(stdout, "other/y was created") {
		t.Errorf("task done with out-of-scope changes: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = tausik(t, root, "", "policy", "eval", "--trigger", "commit", "--gate", "scope_write")
	if code != 1 || !strings.Contains(stdout, "other/gen.txt") {
		t.Errorf("commit evaluation: exit %d\n%s", code, stdout)
	}
	// Everything reverted: silent, and the task closes.
	for _, p := range []string{"other/y", "other/gen.txt"} {
		if err := os.Remove(filepath.Join(root, p)); err != nil {
			t.Fatal(err)
		}
	}
	sh(t, root, "git", "mv", "src/moved", "other/moved")
	write(t, root, "other/keep", "k2 dirty before the task\n")
	if r := postReport(t, root, "git checkout"); r != "" {
		t.Fatalf("reverted tree still reported: %s", r)
	}
	// verify_first wants a fresh verify of the declared file; the rest of
	// task done is the backstop's.
	if code, stdout, stderr := tausik(t, root, "", "key", "init"); code != 0 {
		t.Fatalf("key init: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, stderr := tausik(t, root, "", "verify", "--task", "feat"); code != 0 {
		t.Fatalf("verify: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr := tausik(t, root, "", "task", "done", "feat")
	if code != 0 {
		t.Errorf("task done after the revert: exit %d\n%s%s", code, stdout, stderr)
	}
}
