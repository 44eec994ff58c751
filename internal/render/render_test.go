package render

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/policy"
)

// sampleDecision has one gate of each interesting outcome.
func sampleDecision() *engine.Decision {
	return &engine.Decision{
		ID: "01TEST", Request: engine.RequestRecord{Trigger: "commit"}, Blocked: true, ExitCode: 1,
		Gates: []engine.Verdict{
			{Name: "filesize", Severity: "block", Outcome: engine.Failed, Blocks: true,
				Violations: []policy.Violation{{Msg: "a, b: 9 lines", File: "dir/a:b.py", Line: 7}, {Msg: "no place"}}},
			{Name: "ruff", Severity: "block", Outcome: engine.CouldNotRun, Blocks: true, Reasons: []policy.Reason{{Code: "not_found", Msg: "ruff\nis missing"}}},
			{Name: "tdd_order", Severity: "warn", Outcome: engine.NotApplicable, Reasons: []policy.Reason{{Code: "no_code"}}},
			{Name: "ok", Severity: "block", Outcome: engine.Passed},
		},
	}
}

func TestRenderSARIF(t *testing.T) {
	var buf bytes.Buffer
	if err := renderSARIF(&buf, Options{Fileless: "tausik/gates.json"}, sampleDecision()); err != nil {
		t.Fatal(err)
	}
	log := decodeSARIF(t, buf.Bytes())
	run := log.Runs[0]
	if log.Version != "2.1.0" || len(run.Tool.Driver.Rules) != 4 || len(run.Results) != 3 || run.Tool.Driver.Version == "" {
		t.Fatalf("sarif = %s", buf.String())
	}
	r := run.Results[0]
	if r.RuleID != "filesize" || r.Level != "error" || r.Locations[0].PhysicalLocation.ArtifactLocation.URI != "dir/a:b.py" ||
		r.Locations[0].PhysicalLocation.Region.StartLine != 7 {
		t.Errorf("first result = %+v", r)
	}
	// A finding without a file, and a gate that could not run, point at
	// the project's config: code scanning refuses a result without a
	// location. Could-not-run is also a tool execution notification.
	for _, r := range run.Results[1:] {
		if len(r.Locations) != 1 || r.Locations[0].PhysicalLocation.ArtifactLocation.URI != "tausik/gates.json" || r.Locations[0].PhysicalLocation.Region != nil {
			t.Errorf("result %s %q located at %+v", r.RuleID, r.Message.Text, r.Locations)
		}
	}
	if run.Results[2].RuleID != "ruff" || run.Results[2].RuleIndex != 1 || !strings.Contains(run.Results[2].Message.Text, "not_found") {
		t.Errorf("results = %+v", run.Results)
	}
	notes := run.Invocations[0].ToolExecutionNotifications
	if len(notes) != 1 || notes[0].AssociatedRule.ID != "ruff" || notes[0].Level != "error" {
		t.Errorf("tool execution notifications = %+v", notes)
	}
}

// TestSARIFFingerprintsFollowTheBaseline: a finding keeps its partial
// fingerprint when its line and the numbers in its message move (as the
// baseline keeps holding it), and two findings of one identity differ.
func TestSARIFFingerprintsFollowTheBaseline(t *testing.T) {
	fp := func(vs ...policy.Violation) []string {
		var buf bytes.Buffer
		d := &engine.Decision{Gates: []engine.Verdict{{Name: "ruff", Outcome: engine.Failed, Violations: vs}}}
		if err := renderSARIF(&buf, Options{}, d); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range decodeSARIF(t, buf.Bytes()).Runs[0].Results {
			out = append(out, r.PartialFingerprints[sarifFingerprintKey])
		}
		return out
	}
	before := fp(policy.Violation{Msg: "a.py:3:1: E501 line too long (120 > 88)", File: "a.py", Line: 3, Rule: "E501"})
	after := fp(policy.Violation{Msg: "a.py:9:1: E501 line too long (130 > 88)", File: "a.py", Line: 9, Rule: "E501"})
	other := fp(policy.Violation{Msg: "b.py:3:1: E501 line too long (120 > 88)", File: "b.py", Line: 3, Rule: "E501"})
	if before[0] == "" || before[0] != after[0] || before[0] == other[0] {
		t.Errorf("fingerprints: before %v, after the line moved %v, in another file %v", before, after, other)
	}
	twice := fp(policy.Violation{Msg: "x", File: "a.py"}, policy.Violation{Msg: "x", File: "a.py"})
	if twice[0] == twice[1] || !strings.HasPrefix(twice[1], twice[0]+":") {
		t.Errorf("two findings of one identity = %v", twice)
	}
}

func decodeSARIF(t *testing.T, b []byte) sarifLog {
	t.Helper()
	var log sarifLog
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("runs = %d", len(log.Runs))
	}
	return log
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

// A file name or message that would start a workflow command in the text
// summary is printed with GitHub's commands stopped around it.
func TestRenderGitHubStopsCommandsInText(t *testing.T) {
	d := sampleDecision()
	d.Gates[0].Violations[0].File = "src/we|ird\n::error::pwn.go"
	var buf bytes.Buffer
	if err := renderGitHub(&buf, d); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	stop := strings.Index(out, "::stop-commands::")
	pwn := strings.Index(out, "\n::error::pwn.go")
	if stop < 0 || pwn < stop {
		t.Fatalf("a forged command is not inside stop-commands:\n%s", out)
	}
	token := strings.TrimSpace(out[stop+len("::stop-commands::"):][:32])
	if len(token) != 32 || !strings.HasSuffix(out, "::"+token+"::\n") {
		t.Fatalf("no resume token after the text:\n%s", out)
	}
	var plain bytes.Buffer
	if err := renderGitHub(&plain, sampleDecision()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "stop-commands") {
		t.Errorf("commands stopped around a harmless summary:\n%s", plain.String())
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

// TestSARIFArtifactURIsAreEncoded: a file name that is not a valid URI as
// it stands (a space, '#', '%', a colon in the first segment, a non-ASCII
// letter) is percent-encoded in the artifact location, and the log passes
// the 2.1.0 schema's uri-reference format.
func TestSARIFArtifactURIsAreEncoded(t *testing.T) {
	d := &engine.Decision{ID: "01URI", Request: engine.RequestRecord{Trigger: "commit"}, Gates: []engine.Verdict{{
		Name: "filesize", Severity: "block", Outcome: engine.Failed, Blocks: true,
		Violations: []policy.Violation{{Msg: "big", File: "a b#1%.go", Line: 2}, {Msg: "big", File: "dir/ü:1 [x].go"}, {Msg: "big", File: "c:d.go"}},
	}}}
	var buf bytes.Buffer
	if err := renderSARIF(&buf, Options{}, d); err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := compileSARIFSchema(t).Validate(inst); err != nil {
		t.Errorf("SARIF fails the 2.1.0 schema: %v", err)
	}
	var uris []string
	for _, r := range decodeSARIF(t, buf.Bytes()).Runs[0].Results {
		uris = append(uris, r.Locations[0].PhysicalLocation.ArtifactLocation.URI)
	}
	want := []string{"a%20b%231%25.go", "dir/%C3%BC:1%20%5Bx%5D.go", "c%3Ad.go"}
	if !slices.Equal(uris, want) {
		t.Errorf("artifact URIs = %q, want %q", uris, want)
	}
}
