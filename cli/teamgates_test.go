package cli_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/cli"
)

// TestTeamGateExamples runs `policy test` over the example team gates in
// testdata/teamgates (one per namespace that reads the code: content,
// documents, imports) and checks that every fixture ran and came out as its
// case says: a gate whose policy stopped firing, or a runner that stopped
// filling its namespace, turns a FAILED case into a failure here.
func TestTeamGateExamples(t *testing.T) {
	root := filepath.Join("..", "testdata", "teamgates")
	gates := []string{"no_print", "actions_pinned", "no_private_internal"}
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
