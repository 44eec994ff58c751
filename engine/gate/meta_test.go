package gate

import (
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/diag"
)

// gateYAML returns a valid gate.yaml for name in lang with extra lines appended.
func gateYAML(name, lang string, extra ...string) string {
	return strings.Join(append([]string{
		"name: " + name,
		"description: a gate used by the engine's tests",
		"prevents: a change that this test gate objects to",
		"phase: scoped",
		"triggers: [commit]",
		"severity: block",
		"enabled: true",
		"language: " + lang,
		"facts: [files]",
	}, extra...), "\n") + "\n"
}

// paramsMaxLines declares the one int param of the test gate.
const paramsMaxLines = "params:\n  max_lines: {type: int, default: 3, project_may: lower, description: the limit}"

// FuzzParseMeta: gate.yaml parsing never panics, and whatever it accepts is
// valid by its own rules.
func FuzzParseMeta(f *testing.F) {
	f.Add([]byte(gateYAML("big", "rego", paramsMaxLines)))
	f.Add([]byte(gateYAML("big", "cel", "params:\n  x: {type: strings, default: [a], project_may: add, description: d}")))
	f.Add([]byte("name: [\n"))
	f.Add([]byte("name: big\nparams: {a: 1}\n"))
	f.Add([]byte("- a\n- b\n"))
	f.Add([]byte("name: &a big\nfacts: *a\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		d := &diag.Diagnostics{Kind: diag.ErrBundle}
		m := parseMeta("gate.yaml", "big", b, func(ns string) bool { return ns == "files" }, d)
		if len(d.Items) > 0 {
			return
		}
		if m.Name != "big" || (m.Severity != SeverityBlock && m.Severity != SeverityWarn) || len(m.Triggers) == 0 {
			t.Fatalf("accepted an invalid yaml: %+v", m)
		}
		for _, p := range m.Params {
			if _, err := CoerceParam(p.Type, p.Default); err != nil {
				t.Fatalf("accepted param %s with a bad default: %v", p.Name, err)
			}
		}
	})
}
