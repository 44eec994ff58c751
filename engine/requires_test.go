package engine

import (
	"context"
	"strings"
	"testing"
)

// TestFixtureRequiresTools: a tree case whose tool is missing is skipped and
// said so, or fails under RequireTools (CI), never silently passes.
func TestFixtureRequiresTools(t *testing.T) {
	files := map[string]string{
		"big/gate.yaml":                  gateYAML("big", "rego", paramsMaxLines),
		"big/policy.rego":                regoBig,
		"big/fixtures/red/case.yaml":     "description: four lines\nrequires: [tausik-no-such-tool]\nexpect: {outcome: FAILED}\n",
		"big/fixtures/red/tree/a.txt":    "1\n2\n3\n4\n",
		"big/fixtures/green/case.yaml":   "description: one line\nrequires: [sh, \"python:sys\"]\nexpect: {outcome: PASSED}\n",
		"big/fixtures/green/tree/a.txt":  "1\n",
		"big/fixtures/module/case.yaml":  "description: a missing module\nrequires: [\"python:tausik_no_such_module\"]\nexpect: {outcome: PASSED}\n",
		"big/fixtures/module/tree/a.txt": "1\n",
	}
	e, err := newTestEngine(t, t.TempDir(), files)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := e.Test(context.Background(), TestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Passed != 1 || rep.Skipped != 2 || rep.Failed != 0 {
		t.Fatalf("without RequireTools: %+v", rep)
	}
	cases := rep.Gates[0].Cases
	if !strings.Contains(cases[1].Skipped, "python module") && !strings.Contains(cases[1].Skipped, "Python module tausik_no_such_module") {
		t.Errorf("module case: %+v", cases[1])
	}
	if cases[2].Skipped != "needs tausik-no-such-tool on PATH" {
		t.Errorf("red case: %+v", cases[2])
	}
	rep, err = e.Test(context.Background(), TestOptions{RequireTools: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Passed != 1 || rep.Failed != 2 || rep.Skipped != 0 {
		t.Fatalf("with RequireTools: %+v", rep)
	}
}
