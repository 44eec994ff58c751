package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/baseline"

	"github.com/tausik/tausik/cli"
)

// tausikIn runs the CLI in-process against root and returns its exit code,
// stdout and stderr.
func tausikIn(t testing.TB, root string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Run(context.Background(), append([]string{"--root", root}, args...), strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// judgedFindings evaluates filesize and class_surface at commit over the
// whole tree and returns the exit code, each judged violation's message
// (sorted), how many the baseline held, and the warnings.
func judgedFindings(t *testing.T, root string) (int, []string, int, string) {
	t.Helper()
	code, out, errOut := tausikIn(t, root, "policy", "eval", "--trigger", "commit", "--gate", "filesize", "--gate", "class_surface", "--format", "json")
	var doc struct {
		Gates []struct {
			Violations []struct {
				Msg   string `json:"msg"`
				State string `json:"state"`
			} `json:"violations"`
		} `json:"gates"`
		Summary struct {
			Judged    int `json:"judged"`
			Baselined int `json:"baselined"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("exit %d: decision: %v\n%s\n%s", code, err, out, errOut)
	}
	var judged []string
	for _, g := range doc.Gates {
		for _, v := range g.Violations {
			if v.State == "" {
				judged = append(judged, v.Msg)
			}
		}
	}
	slices.Sort(judged)
	if doc.Summary.Judged != len(judged) {
		t.Errorf("summary counts %d judged, the gates list %d", doc.Summary.Judged, len(judged))
	}
	return code, judged, doc.Summary.Baselined, errOut
}

func gitIn(t *testing.T, root string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.test", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.test")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func writeIn(t *testing.T, root, rel, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readIn(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBaselineHoldsTheLine adopts tausik on legacyTree, red on day one:
// `tausik baseline` records the long file, the god class and the wide
// subclass (and nothing of the changelog, lockfile, docs, data, vendored
// and generated files, the enum, the TYPE_CHECKING class); after it a clean
// change passes; a new oversized module, a grown baselined file and a new
// public method on a baselined class each block naming only themselves; a
// shrunk file passes and names the command that lowers the baseline, which
// then only lowers.
func TestBaselineHoldsTheLine(t *testing.T) {
	root := legacyTree(t)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, m := range []string{"CLAUDECODE", "GEMINI_CLI", "QWEN_CODE", "CODEX_SANDBOX", "CODEX_SANDBOX_NETWORK_DISABLED", "CURSOR_AGENT", "OPENCODE", "AGENT"} {
		t.Setenv(m, "")
	}
	if code, _, _, _ := judgedFindings(t, root); code != 1 {
		t.Fatalf("day one: exit %d, want 1 (red)", code)
	}

	// An agent may not record the baseline.
	t.Setenv("CLAUDECODE", "1")
	if code, out, errOut := tausikIn(t, root, "baseline"); code != 1 || fileExists(root, baseline.Path) {
		t.Fatalf("an agent's baseline: exit %d, file written %v, want 1 and none\n%s%s", code, fileExists(root, baseline.Path), out, errOut)
	}
	t.Setenv("CLAUDECODE", "")

	if code, out, errOut := tausikIn(t, root, "baseline"); code != 0 {
		t.Fatalf("baseline: exit %d\n%s%s", code, out, errOut)
	}
	first := readIn(t, root, baseline.Path)
	bl, err := baseline.Parse([]byte(first))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, en := range bl.Entries {
		if en.Gate == "filesize" || en.Gate == "class_surface" {
			keys = append(keys, en.Key)
		}
		if en.Commit == "" {
			t.Errorf("entry %+v has no commit", en)
		}
	}
	slices.Sort(keys)
	if want := []string{"src/app/core.py:Flask", "src/app/huge.py", "src/app/variants.py:Blueprint"}; !slices.Equal(keys, want) {
		t.Fatalf("baseline keys %q, want %q\n%s", keys, want, first)
	}
	if code, _, _ := tausikIn(t, root, "baseline"); code != 2 {
		t.Errorf("a second plain baseline: exit %d, want 2 (it exists: --update or --force)", code)
	}
	if code, out, errOut := tausikIn(t, root, "baseline", "--force"); code != 0 || readIn(t, root, baseline.Path) != first {
		t.Fatalf("baseline --force on the same tree: exit %d, bytes changed %v\n%s%s", code, readIn(t, root, baseline.Path) != first, out, errOut)
	}
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "baseline")

	// An agent may not raise the baseline by hand either: its host's hook
	// refuses a write to the file, through Write or the shell.
	for _, call := range []string{
		`"tool_name":"Write","tool_input":{"file_path":"` + filepath.Join(root, "tausik", "baseline.json") + `","content":"{}"}`,
		`"tool_name":"Bash","tool_input":{"command":"sed -i s/650/9999/ tausik/baseline.json"}`,
	} {
		var out, errOut bytes.Buffer
		code := cli.Run(context.Background(), []string{"hook", "claude", "pre-tool-use"},
			strings.NewReader(`{"session_id":"s","cwd":"`+root+`","hook_event_name":"PreToolUse",`+call+`}`), &out, &errOut)
		if code != 2 || !strings.Contains(errOut.String(), "is the baseline") {
			t.Errorf("an agent's write to the baseline (%s): exit %d, want 2 (denied)\n%s%s", call, code, out.String(), errOut.String())
		}
	}
	if readIn(t, root, baseline.Path) != first {
		t.Fatal("the baseline changed under an agent's hook")
	}

	// A clean change passes: the baseline holds the three findings.
	writeIn(t, root, "src/app/small.py", "def helper():\n    return 1\n")
	code, judged, held, _ := judgedFindings(t, root)
	if code != 0 || len(judged) != 0 || held != 3 {
		t.Fatalf("clean change: exit %d, judged %q, held %d; want 0, none, 3", code, judged, held)
	}
	_, text, _ := tausikIn(t, root, "policy", "eval", "--trigger", "commit", "--gate", "filesize")
	if !strings.Contains(text, "1 held by the baseline:\n      src/app/huge.py: 650 lines") || strings.Contains(text, "FAILED") {
		t.Errorf("text: want huge.py listed as held by the baseline and no failure:\n%s", text)
	}

	huge := readIn(t, root, "src/app/huge.py")
	variants := readIn(t, root, "src/app/variants.py")
	cases := []struct {
		name    string
		change  func()
		undo    func()
		judged  []string
		warning string
	}{
		{"new oversized module", func() { writeIn(t, root, "src/app/new_big.py", strings.Repeat("v = 1\n", 501)) },
			func() { _ = os.Remove(filepath.Join(root, "src/app/new_big.py")) },
			[]string{"src/app/new_big.py: 501 lines (max 500)"}, ""},
		{"grown baselined file", func() { writeIn(t, root, "src/app/huge.py", huge+strings.Repeat("w = 5\n", 10)) },
			func() { writeIn(t, root, "src/app/huge.py", huge) },
			[]string{"src/app/huge.py: 660 lines (max 500); split it, or exempt it in tausik/gates.json with a reason; grew from 650 to 660 lines (baseline filesize/too_long src/app/huge.py in tausik/baseline.json"}, ""},
		{"new public method on a baselined class", func() {
			writeIn(t, root, "src/app/variants.py", variants+"\n    def brand_new(self):\n        return 0\n")
		}, func() { writeIn(t, root, "src/app/variants.py", variants) },
			[]string{"src/app/variants.py:58: class Blueprint has 136 public members (max 60; 71 own, 65 more from Flask): split the class, or compose instead of inherit; grew from 135 to 136 public members"}, ""},
	}
	for _, c := range cases {
		c.change()
		code, judged, _, _ := judgedFindings(t, root)
		if code != 1 || len(judged) != len(c.judged) {
			t.Errorf("%s: exit %d, judged %q; want 1 and %d", c.name, code, judged, len(c.judged))
		}
		for i := range min(len(judged), len(c.judged)) {
			if !strings.HasPrefix(judged[i], c.judged[i]) {
				t.Errorf("%s: judged %q, want it to start %q", c.name, judged[i], c.judged[i])
			}
		}
		c.undo()
	}

	// A shrunk file passes and names the command; --update lowers it and
	// adds nothing, not even new debt standing beside it.
	writeIn(t, root, "src/app/huge.py", strings.Repeat("w = 4\n", 640))
	code, judged, _, warn := judgedFindings(t, root)
	if code != 0 || len(judged) != 0 || !strings.Contains(warn, "src/app/huge.py shrank from 650 to 640 lines: run `tausik baseline --update`") {
		t.Fatalf("shrunk: exit %d, judged %q, warnings %q; want 0, none, the tightening command", code, judged, warn)
	}
	writeIn(t, root, "src/app/new_big.py", strings.Repeat("v = 1\n", 501))
	if code, out, errOut := tausikIn(t, root, "baseline", "--update"); code != 0 || !strings.Contains(out, "1 lowered") || !strings.Contains(out, "not added: 1") {
		t.Fatalf("update: exit %d\n%s%s", code, out, errOut)
	}
	after := readIn(t, root, baseline.Path)
	if strings.Contains(after, "new_big.py") || !strings.Contains(after, `"quantity": 640`) {
		t.Fatalf("update added debt or did not lower:\n%s", after)
	}
	if code, judged, _, _ := judgedFindings(t, root); code != 1 || len(judged) != 1 || !strings.HasPrefix(judged[0], "src/app/new_big.py") {
		t.Fatalf("after update: exit %d, judged %q; want only new_big.py", code, judged)
	}
}

func fileExists(root, rel string) bool {
	_, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil
}

// TestBaselineFileMalformed: a baseline that cannot be trusted stops every
// evaluation with exit 3 naming file:line, never a silent pass.
func TestBaselineFileMalformed(t *testing.T) {
	root := legacyTree(t)
	t.Setenv("HOME", t.TempDir())
	if err := os.MkdirAll(filepath.Join(root, "tausik"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]struct{ file, want string }{
		"syntax":        {"{\n  \"format\": \"tausik-baseline/v1\",\n  \"entries\": [\n}\n", "tausik/baseline.json:4"},
		"unknown key":   {"{\n  \"format\": \"tausik-baseline/v1\",\n  \"entries\": [],\n  \"extra\": 1\n}\n", "tausik/baseline.json:4"},
		"negative":      {"{\n  \"format\": \"tausik-baseline/v1\",\n  \"entries\": [\n    {\"gate\": \"filesize\", \"rule\": \"too_long\", \"file\": \"a.py\", \"key\": \"a.py\",\n     \"quantity\": -4, \"commit\": \"\"}\n  ]\n}\n", "tausik/baseline.json:5"},
		"wrong format":  {"{\n  \"format\": \"v0\",\n  \"entries\": []\n}\n", "tausik/baseline.json:2"},
		"wrong type":    {"{\n  \"format\": \"tausik-baseline/v1\",\n  \"entries\": [\n    {\"gate\": \"filesize\", \"quantity\": \"many\"}\n  ]\n}\n", "tausik/baseline.json:4"},
		"duplicate key": {"{\n  \"format\": \"tausik-baseline/v1\",\n  \"format\": \"tausik-baseline/v1\",\n  \"entries\": []\n}\n", "tausik/baseline.json:3"},
	} {
		writeIn(t, root, baseline.Path, body.file)
		code, out, errOut := tausikIn(t, root, "policy", "eval", "--trigger", "commit", "--gate", "filesize")
		if code != 3 || !strings.Contains(errOut, body.want) {
			t.Errorf("%s: exit %d, want 3 naming %s\n%s%s", name, code, body.want, out, errOut)
		}
		if code, _, errOut := tausikIn(t, root, "baseline", "--update"); code != 3 || !strings.Contains(errOut, body.want) {
			t.Errorf("%s: baseline --update exit %d, want 3 naming %s\n%s", name, code, body.want, errOut)
		}
	}
}
