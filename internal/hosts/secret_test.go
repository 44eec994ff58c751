package hosts

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A secret an agent writes through a real hook call never reaches the
// decision log: the SQLite files (database, WAL) are read as bytes after
// the calls and hold no part of the key past its first four characters,
// while the decisions themselves, with the masked command, are there. The
// second call puts the key across the point where the recorded command is
// cut, so masking must come before the cut.
func TestSecretNeverReachesTheLog(t *testing.T) {
	const key = "AKIAIOSFODNN7EXAMPLE"
	root := t.TempDir()
	home := t.TempDir()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	long := strings.Repeat("x", 4090)
	for _, cmd := range []string{
		"echo 'aws_key = " + key + "' > creds.txt",
		"echo " + long + " " + key + " > creds2.txt",
	} {
		payload, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": root, "hook_event_name": "PreToolUse",
			"tool_name": "Bash", "tool_input": map[string]any{"command": cmd}})
		if code, stdout, stderr := runHook(t, "claude", root, getenv, Pre, string(payload)); code != 0 {
			t.Fatalf("hook refused a plain write: exit %d %s %s", code, stdout, stderr)
		}
	}
	var db []byte
	files, _ := filepath.Glob(filepath.Join(root, ".tausik", "tausik.db*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		db = append(db, b...)
	}
	if len(files) == 0 || !bytes.Contains(db, []byte("creds2.txt")) {
		t.Fatalf("the decisions were not logged (files %v)", files)
	}
	if !bytes.Contains(db, []byte("echo 'aws_key = AKIA…[secret, 20 characters]' > creds.txt")) {
		t.Errorf("the masked command is not in the log")
	}
	for _, part := range []string{key, key[:5], key[4:]} {
		if bytes.Contains(db, []byte(part)) {
			t.Errorf("the log holds %q of the secret", part)
		}
	}
}

// With secret_scan blocking, the refusal the agent reads names the call as
// the decision records it, masked: the secret is not handed back.
func TestSecretNeverReachesTheAnswer(t *testing.T) {
	const key = "AKIAQWERTYUIOPASDFGH"
	root := t.TempDir()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "tausik"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "tausik", "gates.json"),
		[]byte(`{"gates": {"secret_scan": {"params": {"block": true}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	payload, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": root, "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]any{"command": "echo " + key + " > x.py"}})
	code, stdout, stderr := runHook(t, "claude", root, getenv, Pre, string(payload))
	answer := stdout + stderr
	if code == 0 && !strings.Contains(answer, "deny") {
		t.Fatalf("secret_scan with block: true let the write through: exit %d %s %s", code, stdout, stderr)
	}
	if !strings.Contains(answer, "secret_scan") {
		t.Errorf("the refusal does not name secret_scan: %s", answer)
	}
	for _, part := range []string{key, key[4:]} {
		if strings.Contains(answer, part) {
			t.Errorf("the answer holds %q of the secret: %s", part, answer)
		}
	}
}
