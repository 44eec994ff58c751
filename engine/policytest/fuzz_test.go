package policytest

import "testing"

// FuzzLoadCase: fixture case.yaml files never panic the loader.
func FuzzLoadCase(f *testing.F) {
	f.Add([]byte("description: x\nexpect:\n  outcome: FAILED\n  violations: 1\n"), []byte(`{"files": {"status": "ok", "files": []}}`))
	f.Add([]byte("description: x\nparams: {max_lines: 3}\nexpect: {outcome: PASSED}\n"), []byte(`{"files": {"status": "error"}}`))
	f.Add([]byte("expect: [1]\n"), []byte(`[]`))
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
