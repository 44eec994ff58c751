package policycmd_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/cli/internal/policycmd"
)

// runPolicy runs `tausik --root root policy args...` in-process, with the
// exit code and what Run prints on stderr as the whole CLI has them.
func runPolicy(root string, args ...string) (int, string) {
	var stdout, stderr strings.Builder
	g := &cmdbase.Globals{Root: root, Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		Getenv: os.Getenv, Args: append([]string{"policy"}, args...)}
	cmd := policycmd.New(g)
	cmd.SetArgs(args)
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.ExecuteContext(context.Background())
	if err != nil && !cmdbase.IsSilent(err) {
		fmt.Fprintf(&stderr, "tausik: %v\n", err)
	}
	return cmdbase.ExitCode(err), stdout.String() + stderr.String()
}

// TestPolicyNewFrom scaffolds an example gate of every kind in a fresh
// project and checks that, as written, its fixtures pass `policy test`
// (a FAILED and a PASSED case at least) and pin every mutant of its policy
// (`policy mutate --min-score 1`); then that a kind or a language the
// examples do not have is a usage error that writes nothing.
func TestPolicyNewFrom(t *testing.T) {
	t.Setenv("TAUSIK_USER_CONFIG", "")
	t.Setenv("TAUSIK_MANAGED_CONFIG", "")
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "tausik"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string) { return runPolicy(root, args...) }
	for _, kind := range []string{"content", "documents", "imports", "tool", "files"} {
		gate := "ex_" + kind
		if code, out := run("new", gate, "--from", kind); code != 0 || !strings.Contains(out, "created tausik/policies/"+gate+"/gate.yaml") {
			t.Fatalf("policy new --from %s exited %d:\n%s", kind, code, out)
		}
		code, out := run("test", "-v", "--require-tools", "--gate", gate)
		if code != 0 || !strings.Contains(out, "(FAILED)") || !strings.Contains(out, "(PASSED)") {
			t.Errorf("%s: policy test exited %d, want a FAILED and a PASSED case:\n%s", kind, code, out)
		}
		if code, out := run("mutate", "--min-score", "1", "--gate", gate); code != 0 || strings.Contains(out, "SURVIVED") {
			t.Errorf("%s: policy mutate --min-score 1 exited %d:\n%s", kind, code, out)
		}
	}
	if code, out := run("new", "ex_cel", "--from", "files", "--lang", "cel"); code != 0 || !strings.Contains(out, "policy.cel.yaml") {
		t.Errorf("--from files --lang cel exited %d:\n%s", code, out)
	}
	for _, args := range [][]string{
		{"--from", "sql"}, {"--from", "content", "--lang", "rego"}, {"--from", "imports", "--lang", "cel"},
		{"--from", "documents", "--lang", "python"}, {"--from", "tool", "--lang", "cel"}, {},
	} {
		code, out := run(append([]string{"new", "bad_gate"}, args...)...)
		if code != 2 {
			t.Errorf("policy new %v exited %d, want 2:\n%s", args, code, out)
		}
		if _, err := os.Stat(filepath.Join(root, "tausik", "policies", "bad_gate")); !os.IsNotExist(err) {
			t.Fatalf("policy new %v wrote the gate: %v", args, err)
		}
	}
}
