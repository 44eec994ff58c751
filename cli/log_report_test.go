package cli_test

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/shell"
)

// injected is a file name an agent could write: if the report let it
// through unescaped, the page would run its script.
const injected = `other/<script>alert(1)</script><img src=x onerror=alert(2)>.txt`

// preWrite is Claude Code's PreToolUse payload for a Write of path.
func preWrite(root, path string) string {
	b, _ := json.Marshal(map[string]any{
		"session_id": "s1", "cwd": root, "hook_event_name": "PreToolUse", "tool_name": "Write",
		"tool_input": map[string]any{"file_path": path, "content": "x"},
	})
	return string(b)
}

// reportLog builds a real log by real evaluations: a task scoped to src/
// starts, a write outside its scope (with markup in the file name) is
// refused, one inside allowed, the task closes once (blocked: no verify
// run), a checkpoint is signed, the scope is widened, verify runs and the
// task closes. It returns the root and the checkpoint file.
func reportLog(t *testing.T) (string, string) {
	t.Helper()
	root := backstopRepo(t)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TAUSIK_USER_CONFIG", "")
	t.Setenv("TAUSIK_MANAGED_CONFIG", "")
	t.Setenv("TAUSIK_DB", "")
	t.Setenv("TAUSIK_LOG_ORIGIN", "example.com/report")
	step := func(want int, stdin string, args ...string) {
		t.Helper()
		if code, out, errOut := tausik(t, root, stdin, args...); code != want {
			t.Fatalf("%v: exit %d, want %d\n%s%s", args, code, want, out, errOut)
		}
	}
	step(0, "", "key", "init")
	step(0, "", "task", "start", "feat", "--goal", "work in src", "--scope", "src/", "--files", filepath.Join(root, "src/a.txt"))
	step(2, preWrite(root, injected), "hook", "claude", "pre-tool-use")
	step(0, preWrite(root, "src/a.txt"), "hook", "claude", "pre-tool-use")
	step(1, "", "task", "done", "feat")
	cp := filepath.Join(t.TempDir(), "cp.txt")
	step(0, "", "log", "checkpoint", "--out", cp)
	step(0, "", "task", "scope", "feat", "other/")
	write(t, root, "src/a.txt", "b\n")
	step(0, "", "verify", "--task", "feat")
	step(0, "", "task", "done", "feat")
	return root, cp
}

// numberRE finds a count and the query it links to; queryRE a query's line.
var (
	numberRE = regexp.MustCompile(`<a class="n" href="#(q\d+)" title="([^"]*)">(\d+)</a>`)
	queryRE  = regexp.MustCompile(`<li id="(q\d+)"><code>([^<]*)</code></li>`)
)

// checkNumbers runs, for every count of the page, the log list command its
// link names and requires the number of decisions it returns to be the
// count. It returns how many counts it checked.
func checkNumbers(t *testing.T, root, page string) int {
	t.Helper()
	lines := map[string]string{}
	for _, m := range queryRE.FindAllStringSubmatch(page, -1) {
		lines[m[1]] = html.UnescapeString(m[2])
	}
	got := map[string]int{}
	checked := 0
	for _, m := range numberRE.FindAllStringSubmatch(page, -1) {
		id, title, n := m[1], html.UnescapeString(m[2]), m[3]
		line, ok := lines[id]
		if !ok || line != title {
			t.Fatalf("count %s links to %s, whose query is %q; the link's title says %q", n, id, line, title)
		}
		want, seen := got[id]
		if !seen {
			args, err := shell.Fields(line, nil)
			if err != nil || len(args) < 3 || args[0] != "tausik" || args[1] != "log" || args[2] != "list" {
				t.Fatalf("query %s %q is not a tausik log list command (%v)", id, line, err)
			}
			code, out, errOut := tausik(t, root, "", append(args[1:], "--format", "json")...)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", line, code, errOut)
			}
			var rows []json.RawMessage
			if err := json.Unmarshal([]byte(out), &rows); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			want, got[id] = len(rows), len(rows)
		}
		if strconv.Itoa(want) != n {
			t.Errorf("the page says %s for %q, which returns %d decisions", n, line, want)
		}
		checked++
	}
	return checked
}

// TestLogReportNumbersAreTheQueries: every count of the HTML page is the
// number of decisions its query returns, the page is the same bytes twice,
// markup in a file name stays text, and the sections say what happened.
func TestLogReportNumbersAreTheQueries(t *testing.T) {
	root, cp := reportLog(t)
	report := func(args ...string) string {
		t.Helper()
		code, out, errOut := tausik(t, root, "", append([]string{"log", "report"}, args...)...)
		if code != 0 {
			t.Fatalf("log report %v: exit %d: %s", args, code, errOut)
		}
		return out
	}
	page := report("--checkpoint", cp)
	if again := report("--checkpoint", cp); again != page {
		t.Fatal("two reports of the same log and flags differ")
	}
	if n := checkNumbers(t, root, page); n < 40 {
		t.Fatalf("only %d counts checked", n)
	}
	for _, bad := range []string{"<script", "<img"} {
		if strings.Contains(strings.ToLower(page), bad) {
			t.Errorf("the page holds %q: markup from the log was not escaped", bad)
		}
	}
	code, out, _ := tausik(t, root, "", "log", "list", "--format", "json")
	var all []struct {
		Seq int64 `json:"seq"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &all) != nil {
		t.Fatalf("log list: %d %s", code, out)
	}
	for _, want := range []string{
		"&lt;script&gt;alert(1)&lt;/script&gt;",
		`The whole log verifies: ` + strconv.Itoa(len(all)) + ` decisions`,
		`<td class="ok">ok</td>`,
		"refused write", "scope_write (FAILED)", "verify_first (FAILED)",
		"scope [src/] → [src/, other/]",
		"Closed on: files [src/a.txt]; last verify passed",
		"<title id=\"time-t\">", "<desc id=\"gates-d\">",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// The checkpoint covered the log up to the first close: what came after is unprotected.
	var size int
	data, _ := os.ReadFile(cp)
	if _, err := fmt.Sscanf(strings.SplitN(string(data), "\n", 3)[1], "%d", &size); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("Unprotected: decisions %d..%d, after the newest checkpoint", size+1, len(all)); !strings.Contains(page, want) {
		t.Errorf("the page lacks %q", want)
	}
	mdPage := report("--format", "markdown", "--checkpoint", cp)
	if strings.Contains(mdPage, "<script") || !strings.Contains(mdPage, "&lt;script&gt;") {
		t.Error("the Markdown report does not escape markup from the log")
	}
	if !strings.Contains(mdPage, "| scope\\_write | [1](#") {
		t.Errorf("the Markdown report lacks the blocks of scope_write:\n%s", mdPage)
	}
}

// TestLogReportRange: a range outside every decision reports none, and the
// queries carry the range as absolute times.
func TestLogReportRange(t *testing.T) {
	root, _ := reportLog(t)
	code, page, errOut := tausik(t, root, "", "log", "report", "--between", "2000-01-01,2000-01-02")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(page, `>0</a> decisions`) || !strings.Contains(page, "--between 2000-01-01T00:00:00Z,2000-01-02T00:00:00Z") {
		t.Errorf("an empty range:\n%s", page)
	}
	checkNumbers(t, root, page)
	for _, args := range [][]string{{"log", "report", "--format", "pdf"}, {"log", "list", "--result", "refused"}, {"log", "report", "--since", "yesterday"}} {
		if code, _, _ := tausik(t, root, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
