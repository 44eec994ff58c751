package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/cli"
)

// TestPolicyMutateIsHermetic: a mutation run over tree/ fixtures (each
// gathered once in a temp copy, then judged by every mutant) leaves the
// project, HOME and the working directory byte-identical and TMPDIR empty,
// as `policy test` does.
func TestPolicyMutateIsHermetic(t *testing.T) {
	base := t.TempDir()
	dirs := map[string]string{}
	for _, name := range []string{"project", "home", "tmp", "cwd"} {
		dirs[name] = filepath.Join(base, name)
		if err := os.MkdirAll(dirs[name], 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeArchive(t, dirs["project"], hermeticProject)
	t.Setenv("HOME", dirs["home"])
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dirs["home"], ".config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dirs["home"], ".cache"))
	t.Setenv("TMPDIR", dirs["tmp"])
	t.Setenv("TAUSIK_USER_CONFIG", "")
	t.Setenv("TAUSIK_MANAGED_CONFIG", "")
	t.Chdir(dirs["cwd"])
	before := map[string]map[string]string{}
	for _, name := range []string{"project", "home", "cwd"} {
		before[name] = snapshot(t, dirs[name])
	}

	var stdout, stderr strings.Builder
	code := cli.Run(context.Background(), []string{"--root", dirs["project"], "policy", "mutate", "--gate", "no_tmp", "--gate", "no_empty", "--gate", "tdd_order"},
		strings.NewReader(""), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("policy mutate exited %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	// The tree fixtures really ran and mutants were judged.
	for _, want := range []string{"no_tmp ", "no_empty ", "tdd_order ", "SURVIVED  tausik/policies/no_empty/policy.rego:5  [drop]"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	for _, name := range []string{"project", "home", "cwd"} {
		if diff := diffSnapshots(before[name], snapshot(t, dirs[name])); diff != "" {
			t.Errorf("policy mutate changed %s:\n%s", name, diff)
		}
	}
	if left := snapshot(t, dirs["tmp"]); len(left) > 0 {
		t.Errorf("policy mutate left files in TMPDIR:\n%s", diffSnapshots(nil, left))
	}
}
