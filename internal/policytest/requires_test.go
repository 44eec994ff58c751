package policytest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/stdrunners"

	"github.com/tausik/tausik/engine/config"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/policies"
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
	rep, err := Run(context.Background(), e, Options{})
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
	rep, err = Run(context.Background(), e, Options{RequireTools: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Passed != 1 || rep.Failed != 2 || rep.Skipped != 0 {
		t.Fatalf("with RequireTools: %+v", rep)
	}
}

// A config-defined command gate is proven by the generic command policy's
// fixtures, run against its own namespace.
func TestCommandGateFixtures(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "tausik", "gates.json")
	if err := os.MkdirAll(filepath.Dir(project), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := `{"commands": {"go_version": {"argv": ["go", "version"], "triggers": ["commit"], "severity": "warn"}}}`
	if err := os.WriteFile(project, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	user := filepath.Join(t.TempDir(), "config.json") // a person allows the project's command
	if err := os.WriteFile(user, []byte(`{"allow_commands": [["go", "version"]]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(context.Background(), engine.Deps{Root: root, Builtin: policies.FS, Runners: stdrunners.New(nil),
		Config: config.Paths{Project: project, User: user}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), e, Options{Gates: []string{"go_version"}, RequireTools: true})
	if err != nil || !rep.OK() || rep.Passed < 6 {
		t.Fatalf("policy test: %v %+v", err, rep)
	}
}
