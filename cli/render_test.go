package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine"
)

// sampleDecision has one gate of each interesting outcome.
func sampleDecision() *engine.Decision {
	return &engine.Decision{
		ID: "01TEST", Request: engine.RequestRecord{Trigger: "commit"}, Blocked: true, ExitCode: 1,
		Gates: []engine.Verdict{
			{Name: "filesize", Severity: "block", Outcome: engine.Failed, Blocks: true,
				Violations: []engine.Violation{{Msg: "a, b: 9 lines", File: "dir/a:b.py", Line: 7}, {Msg: "no place"}}},
			{Name: "ruff", Severity: "block", Outcome: engine.CouldNotRun, Blocks: true, Reasons: []engine.Reason{{Code: "not_found", Msg: "ruff\nis missing"}}},
			{Name: "tdd_order", Severity: "warn", Outcome: engine.NotApplicable, Reasons: []engine.Reason{{Code: "no_code"}}},
			{Name: "ok", Severity: "block", Outcome: engine.Passed},
		},
	}
}

func TestRenderSARIF(t *testing.T) {
	var buf bytes.Buffer
	if err := renderSARIF(&buf, nil, sampleDecision()); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if log.Version != "2.1.0" || len(run.Tool.Driver.Rules) != 4 || len(run.Results) != 3 {
		t.Fatalf("sarif = %s", buf.String())
	}
	r := run.Results[0]
	if r.RuleID != "filesize" || r.Level != "error" || r.Locations[0].PhysicalLocation.ArtifactLocation.URI != "dir/a:b.py" ||
		r.Locations[0].PhysicalLocation.Region.StartLine != 7 {
		t.Errorf("first result = %+v", r)
	}
	if run.Results[1].Locations != nil || run.Results[2].RuleID != "ruff" || !strings.Contains(run.Results[2].Message.Text, "not_found") {
		t.Errorf("results = %+v", run.Results)
	}
}

func TestRenderJUnit(t *testing.T) {
	var buf bytes.Buffer
	if err := renderJUnit(&buf, sampleDecision()); err != nil {
		t.Fatal(err)
	}
	var s junitSuite
	if err := xml.Unmarshal(buf.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	if s.Tests != 4 || s.Failures != 1 || s.Errors != 1 || s.Skipped != 1 {
		t.Errorf("suite counts = %+v", s)
	}
	if s.Cases[0].Failure == nil || !strings.Contains(s.Cases[0].Failure.Body, "dir/a:b.py:7: a, b: 9 lines") || s.Cases[3].Failure != nil {
		t.Errorf("cases = %+v", s.Cases)
	}
}

func TestRenderGitHub(t *testing.T) {
	var buf bytes.Buffer
	if err := renderGitHub(&buf, sampleDecision()); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"::error file=dir/a%3Ab.py,line=7,title=filesize::a, b: 9 lines\n",
		"::error title=filesize::no place\n",
		"::error title=ruff::could not run: not_found ruff%0Ais missing\n",
		"blocked: 4 gate(s), 2 blocking",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
