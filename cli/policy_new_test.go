package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/cli"
)

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
	run := func(args ...string) (int, string) {
		var stdout, stderr strings.Builder
		code := cli.Run(context.Background(), append([]string{"--root", root}, args...), strings.NewReader(""), &stdout, &stderr)
		return code, stdout.String() + stderr.String()
	}
	for _, kind := range []string{"content", "documents", "imports", "tool", "files"} {
		gate := "ex_" + kind
		if code, out := run("policy", "new", gate, "--from", kind); code != 0 || !strings.Contains(out, "created tausik/policies/"+gate+"/gate.yaml") {
			t.Fatalf("policy new --from %s exited %d:\n%s", kind, code, out)
		}
		code, out := run("policy", "test", "-v", "--require-tools", "--gate", gate)
		if code != 0 || !strings.Contains(out, "(FAILED)") || !strings.Contains(out, "(PASSED)") {
			t.Errorf("%s: policy test exited %d, want a FAILED and a PASSED case:\n%s", kind, code, out)
		}
		if code, out := run("policy", "mutate", "--min-score", "1", "--gate", gate); code != 0 || strings.Contains(out, "SURVIVED") {
			t.Errorf("%s: policy mutate --min-score 1 exited %d:\n%s", kind, code, out)
		}
	}
	if code, out := run("policy", "new", "ex_cel", "--from", "files", "--lang", "cel"); code != 0 || !strings.Contains(out, "policy.cel.yaml") {
		t.Errorf("--from files --lang cel exited %d:\n%s", code, out)
	}
	for _, args := range [][]string{
		{"--from", "sql"}, {"--from", "content", "--lang", "rego"}, {"--from", "imports", "--lang", "cel"},
		{"--from", "documents", "--lang", "python"}, {"--from", "tool", "--lang", "cel"}, {},
	} {
		code, out := run(append([]string{"policy", "new", "bad_gate"}, args...)...)
		if code != 2 {
			t.Errorf("policy new %v exited %d, want 2:\n%s", args, code, out)
		}
		if _, err := os.Stat(filepath.Join(root, "tausik", "policies", "bad_gate")); !os.IsNotExist(err) {
			t.Fatalf("policy new %v wrote the gate: %v", args, err)
		}
	}
}
