package cli_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/cli"
)

// runCLI runs tausik in-process against root and returns its exit code and
// output.
func runCLI(t *testing.T, root string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr strings.Builder
	code := cli.Run(context.Background(), append([]string{"--root", root}, args...), strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestLogExportFollowsOPA parses every exported line and checks the fields
// OPA's decision-log event defines (decision_id, timestamp, path, input,
// result, labels, requested_by, metrics) carry what the decision says, and
// that the log it came from verifies.
func TestLogExportFollowsOPA(t *testing.T) {
	root := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TAUSIK_USER_CONFIG", "")
	t.Setenv("TAUSIK_MANAGED_CONFIG", "")
	t.Setenv("TAUSIK_DB", "")
	writeArchive(t, root, "-- src/a.txt --\na\n")
	var ids []string
	for _, trigger := range []string{"commit", "task-start", "commit"} {
		code, out, errOut := runCLI(t, root, "policy", "eval", "--trigger", trigger, "--format", "json")
		if code != 0 {
			t.Fatalf("eval %s: exit %d\n%s%s", trigger, code, out, errOut)
		}
		var d struct {
			ID string `json:"decision_id"`
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil || d.ID == "" {
			t.Fatalf("eval output: %v\n%s", err, out)
		}
		ids = append(ids, d.ID)
	}
	file := filepath.Join(t.TempDir(), "log.ndjson")
	if code, _, errOut := runCLI(t, root, "log", "export", "--output", file); code != 0 || errOut != "exported 3 decision(s)\n" {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var ev struct {
			DecisionID  string         `json:"decision_id"`
			Timestamp   string         `json:"timestamp"`
			Path        string         `json:"path"`
			Input       map[string]any `json:"input"`
			Result      map[string]any `json:"result"`
			Labels      map[string]any `json:"labels"`
			RequestedBy string         `json:"requested_by"`
			Metrics     map[string]any `json:"metrics"`
			Custom      map[string]any `json:"custom"`
		}
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		if err := dec.Decode(&ev); err != nil {
			t.Fatalf("line %d does not parse: %v", n+1, err)
		}
		trigger := []string{"commit", "task-start", "commit"}[n]
		if ev.DecisionID != ids[n] || ev.Timestamp == "" || ev.Path != "tausik/"+trigger || ev.Input["trigger"] != trigger ||
			ev.Labels["app"] != "tausik" || ev.RequestedBy != "cli" || ev.Metrics["total_ns"] == nil ||
			ev.Result["blocked"] != false || ev.Custom["decision"] == nil {
			t.Errorf("line %d: %+v", n+1, ev)
		}
		n++
	}
	if err := sc.Err(); err != nil || n != 3 {
		t.Fatalf("%d lines: %v", n, err)
	}
	code, out, _ := runCLI(t, root, "log", "verify")
	if code != 0 || !strings.HasPrefix(out, "ok 3 decisions, head ") {
		t.Fatalf("log verify: exit %d: %s", code, out)
	}
}

// TestWorkflowCommandsParseFlags covers the argv → options layer: malformed
// command lines are usage errors (exit 2) before anything is opened.
func TestWorkflowCommandsParseFlags(t *testing.T) {
	root := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	for _, args := range [][]string{
		{"task", "start"},
		{"task", "start", "x"}, // --goal is required
		{"task", "start", "x", "--goal", "g", "--budget", "many"},
		{"task", "start", "x", "--goal", "g", "--files", ""},
		{"task", "done"},
		{"task", "files", "x"},
		{"task", "list", "--status", "finished"},
		{"verify"},
		{"verify", "--task", "x", "--files", ""},
		{"session", "handoff"},
		{"session", "handoff", " "},
		{"session", "nap"},
		{"log", "show"},
		{"log", "list", "--format", "yaml"},
		{"key", "init", "extra"},
		{"receipt", "verify"},
		{"receipt", "export"},
	} {
		if code, out, errOut := runCLI(t, root, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s%s", args, code, out, errOut)
		}
	}
	if entries, _ := os.ReadDir(root); len(entries) > 0 {
		t.Errorf("usage errors wrote into the project: %v", entries)
	}
}
