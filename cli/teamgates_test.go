package cli_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tausik/tausik/cli"
)

// TestTeamGateExamples runs `policy test` over the example team gates in
// testdata/teamgates (one per namespace that reads the code: content,
// documents, imports; and two tool-call gates a hook runs) and checks that every fixture ran and came out as its
// case says: a gate whose policy stopped firing, or a runner that stopped
// filling its namespace, turns a FAILED case into a failure here.
func TestTeamGateExamples(t *testing.T) {
	root := filepath.Join("..", "testdata", "teamgates")
	gates := []string{"no_print", "actions_pinned", "no_private_internal", "npm_lockfile", "migrations_frozen"}
	t.Setenv("TAUSIK_USER_CONFIG", "")
	t.Setenv("TAUSIK_MANAGED_CONFIG", "")
	args := []string{"--root", root, "policy", "test", "-v", "--require-tools"}
	for _, g := range gates {
		args = append(args, "--gate", g)
	}
	var stdout, stderr strings.Builder
	if code := cli.Run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("policy test exited %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	for _, g := range gates {
		cases, err := os.ReadDir(filepath.Join(root, "tausik", "policies", g, "fixtures"))
		if err != nil {
			t.Fatal(err)
		}
		if len(cases) < 2 {
			t.Errorf("%s has %d fixtures, want a FAILED and a PASSED one at least", g, len(cases))
		}
		for _, c := range cases {
			if !strings.Contains(stdout.String(), "ok    "+g+"/"+c.Name()+" (") {
				t.Errorf("fixture %s/%s did not pass:\n%s", g, c.Name(), stdout.String())
			}
		}
		for _, want := range []string{"(FAILED)", "(PASSED)"} {
			found := false
			for _, line := range strings.Split(stdout.String(), "\n") {
				found = found || strings.HasPrefix(line, "ok    "+g+"/") && strings.HasSuffix(line, want)
			}
			if !found {
				t.Errorf("%s: no fixture came out %s:\n%s", g, want, stdout.String())
			}
		}
	}
}

// TestTeamGateExamplesCopied copies every example team gate, fixtures and
// all, into tausik/policies of a fresh git repository, as a team would, and
// runs policy test there (every fixture passes) and then the gates
// themselves over the whole repository: none may judge the violations its
// own fixture trees hold, since the content and documents runners skip
// gate fixture trees as the built-in gates do. The tool-call gates judge a
// hook's calls instead: npm_lockfile does not take the lockfile in its own
// fixture tree for the project's (there is none, so an install is
// refused), and migrations_frozen lets an edit outside migrations/ through.
func TestTeamGateExamplesCopied(t *testing.T) {
	src := filepath.Join("..", "testdata", "teamgates", "tausik", "policies")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for k, v := range map[string]string{"HOME": root, "TAUSIK_USER_CONFIG": "", "TAUSIK_MANAGED_CONFIG": "",
		"GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.test",
		"GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@example.test"} {
		t.Setenv(k, v)
	}
	var gates []string
	for _, e := range entries {
		if e.IsDir() {
			gates = append(gates, e.Name())
		}
	}
	if len(gates) < 5 {
		t.Fatalf("found %v, want the five examples at least", gates)
	}
	if err := os.CopyFS(filepath.Join(root, "tausik", "policies"), os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-qm", "team gates"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run := func(args ...string) (int, string) {
		var stdout, stderr strings.Builder
		code := cli.Run(context.Background(), append([]string{"--root", root}, args...), strings.NewReader(""), &stdout, &stderr)
		return code, stdout.String() + stderr.String()
	}
	testArgs := []string{"policy", "test", "-v"}
	evalArgs := []string{"policy", "eval", "--trigger", "commit"}
	var codeGates []string
	for _, g := range gates {
		testArgs = append(testArgs, "--gate", g)
		meta, err := os.ReadFile(filepath.Join(src, g, "gate.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(meta), "triggers: [pre-write]") {
			continue
		}
		codeGates = append(codeGates, g)
		evalArgs = append(evalArgs, "--gate", g)
	}
	code, out := run(testArgs...)
	if code != 0 {
		t.Fatalf("policy test exited %d:\n%s", code, out)
	}
	for _, g := range gates {
		if !strings.Contains(out, "ok    "+g+"/") {
			t.Errorf("no fixture of %s ran:\n%s", g, out)
		}
	}
	code, out = run(evalArgs...)
	if code != 0 {
		t.Fatalf("the gates judge their own fixture trees: policy eval exited %d:\n%s", code, out)
	}
	for _, g := range codeGates {
		if !regexp.MustCompile(`(?m)^PASSED +` + g + ` `).MatchString(out) {
			t.Errorf("%s did not pass over the repository:\n%s", g, out)
		}
	}
	hook := func(tool string, input map[string]string) (int, string) {
		payload, _ := json.Marshal(map[string]any{"cwd": root, "tool_name": tool, "tool_input": input})
		var stdout, stderr strings.Builder
		code := cli.Run(context.Background(), []string{"--root", root, "hook", "claude", "pre-tool-use"}, strings.NewReader(string(payload)), &stdout, &stderr)
		return code, stdout.String() + stderr.String()
	}
	if code, out := hook("Bash", map[string]string{"command": "npm install left-pad"}); code != 2 || !strings.Contains(out, "npm_lockfile: npm install left-pad: package-lock.json does not hold it") {
		t.Errorf("npm install of a package only a fixture tree's lockfile holds: exit %d, want 2 (refused):\n%s", code, out)
	}
	mig := filepath.Join(root, "migrations", "0001_init.sql")
	if err := os.MkdirAll(filepath.Dir(mig), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mig, []byte("CREATE TABLE a (x int);\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	edit := map[string]string{"file_path": mig, "old_string": "int", "new_string": "bigint"}
	if code, out := hook("Edit", edit); code != 0 {
		t.Errorf("an edit of a migration not committed yet: exit %d, want 0:\n%s", code, out)
	}
	for _, args := range [][]string{{"add", "-A"}, {"commit", "-qm", "migration"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if code, out := hook("Edit", edit); code != 2 || !strings.Contains(out, "migrations/0001_init.sql is a migration HEAD already holds") {
		t.Errorf("an edit of a committed migration: exit %d, want 2 (refused):\n%s", code, out)
	}
	if code, out := hook("Write", map[string]string{"file_path": filepath.Join(root, "migrations", "0002_more.sql"), "content": "SELECT 1;\n"}); code != 0 {
		t.Errorf("a new migration: exit %d, want 0:\n%s", code, out)
	}
}
