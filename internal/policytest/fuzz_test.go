package policytest

import "testing"

// FuzzLoadCase: fixture case.yaml files never panic the loader.
func FuzzLoadCase(f *testing.F) {
	f.Add([]byte("description: x\nexpect:\n  outcome: FAILED\n  violations: 1\n"), []byte(`{"files": {"status": "ok", "files": []}}`))
	f.Add([]byte("description: x\nparams: {max_lines: 3}\nexpect: {outcome: PASSED}\n"), []byte(`{"files": {"status": "error"}}`))
	f.Add([]byte("expect: [1]\n"), []byte(`[]`))
	f.Add([]byte("description: x\nexpect:\n  outcome: FAILED\n  violations: 1\n  rules_exact: [a]\n  not_messages: [b, \"\"]\n  reasons_exact: [[c]]\n"), []byte(`{"files": {"status": "ok", "files": []}}`))
	f.Fuzz(func(t *testing.T, caseYAML, factsJSON []byte) {
		e, err := newTestEngine(t, t.TempDir(), map[string]string{
			"big/gate.yaml": gateYAML("big", "rego", paramsMaxLines), "big/policy.rego": regoBig,
			"big/fixtures/c/case.yaml": string(caseYAML), "big/fixtures/c/facts.json": string(factsJSON),
		})
		if err != nil {
			t.Fatal(err)
		}
		g, _ := e.Gate("big")
		c, d := loadCase(g, "c")
		if (c == nil) == (d == nil) {
			t.Fatalf("loadCase returned case %v and diagnostics %v", c, d)
		}
	})
}

// FuzzMutateSteps: a mutation fixture's base and mutate steps, whatever
// their bytes, never panic the loader, which accepts or refuses with a
// diagnostic.
func FuzzMutateSteps(f *testing.F) {
	f.Add([]byte("base: tree\nmutate:\n  - replace: {file: a.txt, line: 1, with: x}\n  - delete: d\n"))
	f.Add([]byte("base: facts\nmutate:\n  - set: {path: /files/files/-, value: {path: a, lines: 9}}\n  - unset: /files/files/0\n"))
	f.Add([]byte("base: tree\nmutate:\n  - append: {file: a.txt, content: \"\"}\n  - write: {file: a/../b, content: x}\n"))
	f.Add([]byte("base: facts\nmutate:\n  - set: {path: /~1/~0, value: [1]}\n"))
	f.Add([]byte("base: c\nmutate: [{delete: x}]\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		e, err := newTestEngine(t, t.TempDir(), map[string]string{
			"big/gate.yaml": gateYAML("big", "rego", paramsMaxLines), "big/policy.rego": regoBig,
			"big/fixtures/tree/case.yaml": "description: base\nexpect: {outcome: PASSED}\n", "big/fixtures/tree/tree/a.txt": "1\n",
			"big/fixtures/tree/tree/d/b.txt": "1\n",
			"big/fixtures/facts/case.yaml":   "description: base\nexpect: {outcome: PASSED}\n",
			"big/fixtures/facts/facts.json":  `{"files": {"status": "ok", "files": [{"path": "a", "lines": 1}]}}`,
			"big/fixtures/c/case.yaml":       "description: fuzzed\nexpect: {outcome: PASSED}\n" + string(body),
		})
		if err != nil {
			t.Fatal(err)
		}
		g, _ := e.Gate("big")
		c, d := loadCase(g, "c")
		if (c == nil) == (d == nil) {
			t.Fatalf("loadCase returned case %v and diagnostics %v", c, d)
		}
	})
}
