package policytest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/fs"
)

// weakGate is a team gate with two rules, whose fixtures only ever reach
// the first: the second rule (line 9) can be deleted unnoticed.
var weakGate = map[string]string{
	"gate.yaml": gateYAML("weak", "rego"),
	"policy.rego": `package tausik.gates.weak

violations contains {"msg": sprintf("%s is empty", [f.path])} if {
	some f in input.files.files
	f.size == 0
}

# never reached by a fixture
violations contains {"msg": sprintf("%s is huge", [f.path])} if {
	some f in input.files.files
	f.size > 1000
}
`,
	"fixtures/empty/case.yaml":   "description: an empty file fails\nexpect: {outcome: FAILED, violations: 1, messages: [a is empty]}\n",
	"fixtures/empty/facts.json":  `{"files": {"status": "ok", "files": [{"path": "a", "size": 0}]}}`,
	"fixtures/normal/case.yaml":  "description: a normal file passes\nbase: empty\nmutate:\n  - set: {path: /files/files/0/size, value: 10}\nexpect: {outcome: PASSED}\n",
	"fixtures/normal/facts.json": "",
}

// writeTeamGate writes a team gate bundle into root.
func writeTeamGate(t *testing.T, root, name string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		if c == "" && strings.HasSuffix(p, "facts.json") {
			continue
		}
		full := filepath.Join(root, gate.TeamDir, name, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func teamEngine(t *testing.T, root string) *engine.Engine {
	t.Helper()
	e, err := engine.New(context.Background(), engine.Deps{Root: root, Builtin: fstest.MapFS{}, Runners: runners.NewRegistry(fs.New())})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// A weak gate's unreached rule survives, reported at its file and line with
// the fixtures it passed; adding the fixture that reaches it kills it.
func TestMutateWeakGate(t *testing.T) {
	root := t.TempDir()
	writeTeamGate(t, root, "weak", weakGate)
	rep, err := Mutate(context.Background(), teamEngine(t, root), MutateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gr := rep.Gates[0]
	if !rep.OK() || gr.Gate != "weak" || gr.Mutants == 0 || gr.Score >= 1 {
		t.Fatalf("report %+v", rep)
	}
	i := slices.IndexFunc(gr.Survived, func(s Survivor) bool { return s.Operator == "remove_rule" })
	if i < 0 {
		t.Fatalf("the unreached rule's removal did not survive: %+v", gr.Survived)
	}
	s := gr.Survived[i]
	if s.File != "tausik/policies/weak/policy.rego" || s.Line != 9 || !strings.HasPrefix(s.Original, `violations contains {"msg": sprintf("%s is huge"`) ||
		!slices.Equal(s.Fixtures, []string{"empty", "normal"}) {
		t.Fatalf("survivor %+v", s)
	}
	for _, s := range gr.Survived {
		if s.Line < 9 {
			t.Errorf("a mutant of the pinned first rule survived: %+v", s)
		}
	}

	writeTeamGate(t, root, "weak", map[string]string{
		"fixtures/huge/case.yaml":     "description: a huge file fails\nbase: empty\nmutate:\n  - set: {path: /files/files/0/size, value: 1001}\nexpect: {outcome: FAILED, messages: [a is huge]}\n",
		"fixtures/at_limit/case.yaml": "description: a file at the limit passes\nbase: empty\nmutate:\n  - set: {path: /files/files/0/size, value: 1000}\nexpect: {outcome: PASSED}\n",
	})
	rep, err = Mutate(context.Background(), teamEngine(t, root), MutateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gr = rep.Gates[0]
	if len(gr.Survived) != 0 || gr.Score != 1 || rep.Score != 1 || gr.Killed+gr.Discarded != gr.Mutants {
		t.Fatalf("with the missing fixtures: %+v", gr)
	}
	if below := rep.Below(1); len(below) != 0 {
		t.Fatalf("below 1: %v", below)
	}
}

// Equivalent declarations count survivors as equivalent; one that matches
// nothing, or a mutant that was killed, is a problem like a stale excuse.
func TestMutateEquivalentDeclarations(t *testing.T) {
	root := t.TempDir()
	writeTeamGate(t, root, "weak", weakGate)
	writeTeamGate(t, root, "weak", map[string]string{"mutants.yaml": `equivalent:
  - line: 9
    mutant: (rule removed)
    reason: pretend no input can ever reach this rule, for the test
`})
	rep, err := Mutate(context.Background(), teamEngine(t, root), MutateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gr := rep.Gates[0]
	if gr.Equivalent != 1 || !rep.OK() || slices.ContainsFunc(gr.Survived, func(s Survivor) bool { return s.Operator == "remove_rule" }) {
		t.Fatalf("declared survivor: %+v", gr)
	}
	writeTeamGate(t, root, "weak", map[string]string{"mutants.yaml": `equivalent:
  - line: 40
    mutant: (rule removed)
    reason: this declaration names a line the policy does not have
  - line: 5
    mutant: f.size != 0
    reason: this mutant is killed by the empty fixture, so it is not equivalent
  - line: 9
    mutant: (rule removed)
    reason: short
`})
	rep, err = Mutate(context.Background(), teamEngine(t, root), MutateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	probs := strings.Join(rep.Gates[0].Problems, "\n")
	for _, want := range []string{"mutants.yaml:2: the equivalent mutant \"(rule removed)\" at line 40 matches no generated mutant",
		"line 5 \"f.size != 0\" is declared equivalent, but it was killed", "mutants.yaml:10: equivalent[2].reason must explain"} {
		if !strings.Contains(probs, want) {
			t.Errorf("problems lack %q:\n%s", want, probs)
		}
	}
	if rep.OK() {
		t.Error("a stale declaration passed")
	}
}

// A gate whose fixtures fail on the unmutated policy is not mutated: its
// survivors would mean nothing.
func TestMutateNeedsGreenFixtures(t *testing.T) {
	root := t.TempDir()
	writeTeamGate(t, root, "weak", weakGate)
	writeTeamGate(t, root, "weak", map[string]string{"fixtures/wrong/case.yaml": "description: expects the wrong outcome\nbase: empty\nmutate:\n  - set: {path: /files/files/0/size, value: 1}\nexpect: {outcome: FAILED}\n"})
	rep, err := Mutate(context.Background(), teamEngine(t, root), MutateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gr := rep.Gates[0]
	if rep.OK() || gr.Mutants != 0 || len(gr.Problems) != 1 || !strings.Contains(gr.Problems[0], "wrong fails on the unmutated policy") {
		t.Fatalf("report %+v", gr)
	}
	if _, err := Mutate(context.Background(), teamEngine(t, root), MutateOptions{Gates: []string{"nope"}}); err == nil {
		t.Fatal("an unknown gate was accepted")
	}
}
