package policytest

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/internal/yamlread"
)

// parseExpectYAML reads src as a case's expect: mapping.
func parseExpectYAML(t *testing.T, src string) (Expectation, *diag.Diagnostics) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	d := &diag.Diagnostics{}
	x := parseExpect(yamlread.Reader{File: "case.yaml", D: d}, doc.Content[0])
	return x, d
}

// TestExpectationCheck holds each expectation to one verdict that meets it
// and one that does not ("" wants no problem).
func TestExpectationCheck(t *testing.T) {
	failed := engine.Verdict{Outcome: engine.Failed, Violations: []policy.Violation{
		{Msg: "a.py:1: B602 shell", Rule: "B602"},
		{Msg: "b.py: cannot parse", Rule: "unscanned_file"},
	}}
	unruled := engine.Verdict{Outcome: engine.Failed, Violations: []policy.Violation{{Msg: "x"}}}
	missing := engine.Verdict{Outcome: engine.CouldNotRun, Reasons: []policy.Reason{{Code: "tool_not_found", Msg: "pytest is not installed"}}}
	twice := engine.Verdict{Outcome: engine.CouldNotRun, Reasons: append(missing.Reasons[:1:1], policy.Reason{Code: "parse_error"})}
	for _, tc := range []struct {
		expect string
		v      engine.Verdict
		want   string
	}{
		{"{outcome: FAILED, messages: [B602 shell]}", failed, ""},
		{"{outcome: FAILED, messages: [B999]}", failed, `no violation or reason mentions "B999"`},
		{"{outcome: FAILED, not_messages: [--fix]}", failed, ""},
		{"{outcome: FAILED, not_messages: [cannot parse]}", failed, `a violation or reason mentions "cannot parse", which not_messages forbids`},
		{"{outcome: COULD_NOT_RUN, not_messages: [tool_not]}", missing, "which not_messages forbids"},
		{`{outcome: FAILED, messages_exact: ["b.py: cannot parse", "a.py:1: B602 shell"]}`, failed, ""},
		{`{outcome: FAILED, messages_exact: ["a.py:1: B602", "b.py: cannot parse"]}`, failed, `messages_exact: missing ["a.py:1: B602"], unexpected ["a.py:1: B602 shell"]`},
		{`{outcome: COULD_NOT_RUN, messages_exact: ["pytest is not installed"]}`, missing, ""},
		{`{outcome: COULD_NOT_RUN, messages_exact: ["pytest is not installed"]}`, twice, `messages_exact: missing nothing, unexpected [""]`},
		{"{outcome: FAILED, rules: [unscanned_file]}", failed, ""},
		{"{outcome: FAILED, rules: [B101]}", failed, `no violation has rule "B101"`},
		{"{outcome: FAILED, not_rules: [B101]}", failed, ""},
		{"{outcome: FAILED, not_rules: [B602]}", failed, `a violation has rule "B602", which not_rules forbids`},
		{"{outcome: FAILED, rules_exact: [unscanned_file, B602]}", failed, ""},
		{"{outcome: FAILED, rules_exact: [B602, B602]}", failed, `rules_exact: missing ["B602"], unexpected ["unscanned_file"]`},
		{`{outcome: FAILED, rules_exact: [""]}`, unruled, ""},
		{"{outcome: FAILED, rules_exact: [error]}", unruled, `rules_exact: missing ["error"], unexpected [""]`},
		{"{outcome: COULD_NOT_RUN, reasons: [tool_not_found]}", missing, ""},
		{"{outcome: COULD_NOT_RUN, reasons: [timeout]}", missing, `no reason has code "timeout"`},
		{"{outcome: COULD_NOT_RUN, not_reasons: [parse_error]}", missing, ""},
		{"{outcome: COULD_NOT_RUN, not_reasons: [parse_error]}", twice, `a reason has code "parse_error", which not_reasons forbids`},
		{"{outcome: COULD_NOT_RUN, reasons_exact: [tool_not_found]}", missing, ""},
		{"{outcome: COULD_NOT_RUN, reasons_exact: [tool_not_found]}", twice, `reasons_exact: missing nothing, unexpected ["parse_error"]`},
		{"{outcome: FAILED, reasons_exact: []}", failed, ""},
		{"{outcome: COULD_NOT_RUN, reasons_exact: []}", missing, `reasons_exact: missing nothing, unexpected ["tool_not_found"]`},
	} {
		x, d := parseExpectYAML(t, tc.expect)
		if len(d.Items) > 0 {
			t.Fatalf("%s: %v", tc.expect, d)
		}
		got := strings.Join(x.check(tc.v), "\n")
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: problems %q, want %q", tc.expect, got, tc.want)
		}
	}
}

// TestExpectationErrors: a bad value, and expectations no verdict can meet,
// are refused at their line, not left to fail (or pass) at run time.
func TestExpectationErrors(t *testing.T) {
	for src, want := range map[string]string{
		"outcome: FAILED\nreason: [x]\n":                                              `case.yaml:2: unknown key "reason" in expect`,
		"outcome: FAILED\nrules: B602\n":                                              "case.yaml:2: expect.rules must be a list of strings",
		"outcome: FAILED\nrules_exact: [[B602]]\n":                                    "case.yaml:2: expect.rules_exact[0] must be a string",
		"outcome: FAILED\nmessages:\n  - \"\"\n":                                      "case.yaml:3: expect.messages[0]: an empty string is part of every message",
		"outcome: FAILED\nnot_messages:\n  - ok\n  - \"\"\n":                          "case.yaml:4: expect.not_messages[1]: an empty string",
		"outcome: COULD_NOT_RUN\nreasons_exact: [Tool Not Found]\n":                   `case.yaml:2: expect.reasons_exact[0]: "Tool Not Found" is not a reason code`,
		"outcome: COULD_NOT_RUN\nnot_reasons: [\"\"]\n":                               `case.yaml:2: expect.not_reasons[0]: "" is not a reason code`,
		"outcome: FAILED\nviolations: -1\n":                                           "case.yaml:2: expect.violations must be 0 or more, got -1",
		"outcome: FAILED\nrules: [a]\nnot_rules: [a]\n":                               `case.yaml:3: expect.not_rules: "a" is also expected (rules "a"), so the case could never pass`,
		"outcome: FAILED\nmessages: [\"a.py:1: B602\"]\nnot_messages: [B602]\n":       `case.yaml:3: expect.not_messages: "B602" is also expected`,
		"outcome: FAILED\nmessages_exact: [\"a.py:1: B602\"]\nnot_messages: [B602]\n": `case.yaml:3: expect.not_messages: "B602" is in messages_exact`,
		"outcome: FAILED\nrules_exact: [a]\nrules: [b]\n":                             `case.yaml:3: expect.rules: "b" is not in rules_exact`,
		"outcome: COULD_NOT_RUN\nrules: [a]\n":                                        "case.yaml:2: expect.rules: only a FAILED verdict shows violations, this one is COULD_NOT_RUN",
		"outcome: PASSED\nviolations: 2\n":                                            "case.yaml:2: expect.violations: only a FAILED verdict shows violations",
		"outcome: FAILED\nreasons: [timeout]\n":                                       "case.yaml:2: expect.reasons: a FAILED verdict shows no reasons",
		"outcome: PASSED\nreasons_exact: [timeout]\n":                                 "case.yaml:2: expect.reasons_exact: a PASSED verdict shows no reasons",
		"outcome: PASSED\nmessages_exact: [ok]\n":                                     "case.yaml:2: expect.messages_exact: a PASSED verdict shows no messages",
		"outcome: NOT_APPLICABLE\nnot_rules: [x]\n":                                   "case.yaml:2: expect.not_rules: only a FAILED verdict shows violations",
		"outcome: FAILED\nnot_reasons: [timeout]\n":                                   "case.yaml:2: expect.not_reasons: a FAILED verdict shows no reasons",
		"outcome: PASSED\nnot_messages: [boom]\n":                                     "case.yaml:2: expect.not_messages: a PASSED verdict shows no messages",
		"outcome: FAILED\nviolations: 2\nrules_exact: [a]\n":                          "case.yaml:3: expect.rules_exact: 1 rule(s) for 2 violation(s)",
		"outcome: FAILED\nviolations: 1\nmessages_exact: [a, b]\n":                    "case.yaml:3: expect.messages_exact: 2 message(s) for 1 violation(s)",
	} {
		_, d := parseExpectYAML(t, src)
		if !strings.Contains(d.Error(), want) {
			t.Errorf("%q: diagnostics %q, want %q", src, d.Error(), want)
		}
	}
	// An item that is not a string is refused once, not also as empty.
	if _, d := parseExpectYAML(t, "outcome: FAILED\nmessages: [{a: 1}]\n"); len(d.Items) != 1 || !strings.Contains(d.Error(), "expect.messages[0] must be a string") {
		t.Errorf("non-string message: %v", d)
	}
	// The same lists are fine where a verdict can show them.
	for _, src := range []string{
		"outcome: FAILED\nviolations: 2\nrules_exact: [a, b]\nrules: [a]\nnot_rules: [c]\nmessages_exact: [x, y]\nreasons_exact: []\n",
		"outcome: COULD_NOT_RUN\nreasons_exact: [tool_not_found, \"fact_error:files\"]\nnot_reasons: [timeout]\nrules_exact: []\nmessages_exact: [\"\"]\n",
	} {
		if _, d := parseExpectYAML(t, src); len(d.Items) > 0 {
			t.Errorf("%q: %v", src, d)
		}
	}
}
