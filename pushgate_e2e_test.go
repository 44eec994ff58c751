package main

import (
	"database/sql"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// pushProject is a git repository with a bare remote "origin" and one
// commit on main, whose committed config switches git_push_gate on.
func pushProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	root, remote := filepath.Join(dir, "work"), filepath.Join(dir, "origin.git")
	for _, d := range []string{filepath.Join(root, "tausik"), remote} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, remote, "init", "-q", "--bare")
	gitIn(t, root, "init", "-q", "-b", "main")
	writeIn(t, root, "tausik/gates.json", `{"gates": {"git_push_gate": {"enabled": true}}}`+"\n")
	writeIn(t, root, "a.txt", "one\n")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "one")
	gitIn(t, root, "remote", "add", "origin", remote)
	return root
}

// pushBin runs the real binary in root with extra environment.
func pushBin(t *testing.T, bin, root string, env []string, stdin string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = root
	cmd.Env = append(append(os.Environ(), "TAUSIK_ROOT="+root), env...)
	for _, m := range []string{"CLAUDECODE", "GEMINI_CLI", "QWEN_CODE", "CODEX_SANDBOX", "CURSOR_AGENT", "OPENCODE", "AGENT"} {
		cmd.Env = append(cmd.Env, m+"=")
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return code, string(out)
}

// pushHook is Claude's pre-tool-use hook for a Bash call running command:
// the exit code (0 allows, 2 refuses) and what the hook said.
func pushHook(t *testing.T, bin, root, command string) (int, string) {
	t.Helper()
	payload, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": root, "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]string{"command": command}})
	return pushBin(t, bin, root, nil, string(payload), "hook", "claude", "pre-tool-use")
}

// TestGitPushGateEndToEnd drives git_push_gate through the real binary and
// a real repository: an agent cannot issue a ticket; without one a push is
// refused; a person's `tausik push-ok` lets exactly one push through (which
// then really pushes) and the next is refused; a ticket issued before a new
// commit is refused for it; a ticket bound to a remote refuses another one
// without being spent; a ticket row reset by hand allows nothing; the log
// records each issue and use and still verifies.
func TestGitPushGateEndToEnd(t *testing.T) {
	bin := buildBinary(t)
	root := pushProject(t)
	want := func(command string, code int, fragment string) {
		t.Helper()
		got, out := pushHook(t, bin, root, command)
		if got != code || !strings.Contains(out, fragment) {
			t.Fatalf("hook %q: exit %d, want %d with %q:\n%s", command, got, code, fragment, out)
		}
	}

	if code, out := pushBin(t, bin, root, []string{"CLAUDECODE=1"}, "", "push-ok"); code != 1 || !strings.Contains(out, "a person must make this change") {
		t.Fatalf("an agent's push-ok: exit %d, want 1 (refused):\n%s", code, out)
	}
	want("git push origin main", 2, "none was issued")
	want(`echo "git push origin main"`, 0, "")

	code, out := pushBin(t, bin, root, nil, "", "push-ok")
	if code != 0 || !strings.Contains(out, "allows one git push of commit ") || !strings.Contains(out, "(600 s)") {
		t.Fatalf("push-ok: exit %d:\n%s", code, out)
	}
	want("bash -c 'git push origin main'", 0, "")
	gitIn(t, root, "push", "-q", "origin", "main")
	want("git push origin main", 2, "the ticket was used by an earlier push")
	want("env GIT_TRACE=0 git -C . push", 2, "the ticket was used by an earlier push")

	if code, out := pushBin(t, bin, root, nil, "", "push-ok"); code != 0 {
		t.Fatalf("push-ok: exit %d:\n%s", code, out)
	}
	writeIn(t, root, "a.txt", "two\n")
	gitIn(t, root, "commit", "-q", "-am", "two")
	want("git push origin main", 2, "the ticket is for commit ")

	if code, out := pushBin(t, bin, root, nil, "", "push-ok", "origin", "main"); code != 0 || !strings.Contains(out, " to origin, branch main ") {
		t.Fatalf("push-ok origin main: exit %d:\n%s", code, out)
	}
	want("git push upstream main", 2, "the ticket allows a push to origin only, and this one names upstream")
	want("git push origin HEAD:release", 2, "the ticket allows a push of branch main only, and this one pushes release")
	want("git push origin main && git push origin main", 2, "a ticket allows one push and the call runs 2")
	want("git push origin main", 0, "")
	gitIn(t, root, "push", "-q", "origin", "main")

	// A ticket reset by hand (an SQL client) is not a leave.
	db, err := sql.Open("sqlite", filepath.Join(root, ".tausik", "tausik.db"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Exec("UPDATE push_tickets SET used_at = '', used_by = '' WHERE used_at != ''")
	db.Close()
	if n, _ := res.RowsAffected(); err != nil || n != 2 {
		t.Fatalf("reset the used tickets: %v (%d rows)", err, n)
	}
	want("git push origin main", 2, "push ticket changed outside tausik")

	code, out = pushBin(t, bin, root, nil, "", "log", "list", "--format", "json")
	if code != 0 {
		t.Fatalf("log list: exit %d:\n%s", code, out)
	}
	if n := strings.Count(out, `"trigger": "push-ticket"`); n != 5 {
		t.Errorf("the log holds %d push-ticket entries, want 5 (3 issued, 2 used):\n%s", n, out)
	}
	if code, out := pushBin(t, bin, root, nil, "", "log", "verify"); code != 0 {
		t.Errorf("log verify: exit %d:\n%s", code, out)
	}
}
