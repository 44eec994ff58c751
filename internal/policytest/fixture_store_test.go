package policytest

import (
	"context"
	"github.com/tausik/tausik/internal/project"
	"strings"
	"testing"
)

// deepGate fails a deep task: it reads only the task facts a store: section
// seeds.
var deepGate = map[string]string{
	"gate.yaml": strings.Replace(gateYAML("deep", "rego"), "facts: [files]", "facts: [task]", 1),
	"policy.rego": `package tausik.gates.deep

violations contains {"msg": sprintf("%s is deep", [input.task.slug])} if input.task.task.tier == "deep"
`,
	"fixtures/deep/tree/README.md": "x\n",
	"fixtures/deep/case.yaml": "description: a seeded deep task\ntask: t1\nstore:\n  tasks:\n    - {slug: t1, tier: deep}\n" +
		"expect: {outcome: FAILED, messages: [t1 is deep]}\n",
	"fixtures/standard/tree/README.md": "x\n",
	"fixtures/standard/case.yaml": "description: a seeded standard task\ntask: t1\nstore:\n  tasks:\n    - {slug: t1}\n" +
		"expect: {outcome: PASSED}\n",
}

// A store: section seeds a tree fixture's store; its mistakes are the
// case's problems, named by line.
func TestFixtureStoreSeed(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	writeTeamGate(t, root, "deep", deepGate)
	e, err := project.Open(ctx, project.Setup{Root: root, NoStore: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rep, err := Run(ctx, e, Options{Gates: []string{"deep"}})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.Passed != 2 {
		t.Fatalf("seeded fixtures: %+v", rep.Gates)
	}
	writeTeamGate(t, root, "deep", map[string]string{
		"fixtures/bad/tree/README.md": "x\n",
		"fixtures/bad/case.yaml": "description: bad seeds\ntask: t1\nstore:\n  tasks:\n    - {slug: t1, status: paused, started_at: soon}\n" +
			"  verify_runs:\n    - {task: t1}\nexpect: {outcome: PASSED}\n",
		"fixtures/facts/facts.json": `{"task": {"status": "ok", "slug": "", "found": false, "task": null, "active": []}}`,
		"fixtures/facts/case.yaml":  "description: a facts case cannot seed\nstore: {tasks: []}\nexpect: {outcome: PASSED}\n",
	})
	e2, err := project.Open(ctx, project.Setup{Root: root, NoStore: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	rep, err = Run(ctx, e2, Options{Gates: []string{"deep"}})
	if err != nil {
		t.Fatal(err)
	}
	var probs []string
	for _, c := range rep.Gates[0].Cases {
		probs = append(probs, c.Problems...)
	}
	all := strings.Join(probs, "\n")
	for _, want := range []string{`store.tasks[].status "paused" is not active, done or abandoned`, `started_at: want an RFC 3339 time, got "soon"`,
		"store.verify_runs[]", "store: only a tree/ fixture has a store to seed"} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
}
