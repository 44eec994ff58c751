package cli

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/tausik/tausik/engine"
)

// SARIF 2.1.0, the format code-scanning dashboards ingest: one rule per
// gate, one result per violation (or per reason, for a gate that could not run).

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool      `json:"tool"`
	Results    []sarifResult  `json:"results"`
	Properties map[string]any `json:"properties"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
	Help             sarifMessage `json:"help"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID     string          `json:"ruleId"`
	Level      string          `json:"level"`
	Message    sarifMessage    `json:"message"`
	Locations  []sarifLocation `json:"locations,omitempty"`
	Properties map[string]any  `json:"properties,omitempty"`
	// BaselineState is "unchanged" for a finding the baseline holds, "new"
	// for one judged here.
	BaselineState string `json:"baselineState,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

// renderSARIF writes d as SARIF; lookup, when not nil, supplies each gate's
// description and remedy for the rule metadata.
func renderSARIF(w io.Writer, lookup func(string) (*engine.Gate, bool), d *engine.Decision) error {
	run := sarifRun{
		Tool:       sarifTool{Driver: sarifDriver{Name: "tausik", InformationURI: "https://github.com/tausik/tausik", Rules: []sarifRule{}}},
		Results:    []sarifResult{},
		Properties: map[string]any{"decision_id": d.ID, "trigger": d.Request.Trigger, "blocked": d.Blocked, "exit_code": d.ExitCode},
	}
	for _, v := range d.Gates {
		rule := sarifRule{ID: v.Name}
		if g, ok := lookupGate(lookup, v.Name); ok {
			rule.ShortDescription, rule.Help = sarifMessage{Text: g.Description}, sarifMessage{Text: g.Prevents}
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, rule)
		level := "warning"
		if v.Blocks {
			level = "error"
		}
		for _, vi := range v.Violations {
			r := sarifResult{RuleID: v.Name, Level: level, Message: sarifMessage{Text: vi.Msg}}
			switch vi.State {
			case "":
				r.BaselineState = "new"
			case engine.StateBaselined:
				r.BaselineState = "unchanged"
			}
			if vi.State != "" {
				// Not judged here (elsewhere, or held by the baseline): a
				// note, which no code-scanning check fails on, with why.
				r.Level, r.Properties = "note", map[string]any{"state": vi.State}
			}
			if vi.File != "" {
				loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: vi.File}}}
				if vi.Line > 0 {
					loc.PhysicalLocation.Region = &sarifRegion{StartLine: vi.Line}
				}
				r.Locations = []sarifLocation{loc}
			}
			run.Results = append(run.Results, r)
		}
		if v.Outcome == engine.CouldNotRun {
			for _, rs := range v.Reasons {
				run.Results = append(run.Results, sarifResult{RuleID: v.Name, Level: level,
					Message: sarifMessage{Text: "could not run: " + strings.TrimSpace(rs.Code+" "+rs.Msg)}})
			}
		}
	}
	return writeJSON(w, sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

// JUnit XML: one test case per gate, so CI test tabs show gates.

type junitSuite struct {
	XMLName  xml.Name    `xml:"testsuite"`
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitProblem `xml:"skipped,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

func renderJUnit(w io.Writer, d *engine.Decision) error {
	s := junitSuite{Name: "tausik " + d.Request.Trigger, Time: seconds(d.Timings.TotalNS)}
	for _, v := range d.Gates {
		c := junitCase{Name: v.Name, Classname: "tausik." + d.Request.Trigger, Time: seconds(v.EvalNS)}
		var lines []string
		for _, vi := range v.Judged() {
			lines = append(lines, violationLine(vi))
		}
		for _, r := range v.Reasons {
			lines = append(lines, strings.TrimSpace(r.Code+" "+r.Msg))
		}
		p := &junitProblem{Message: fmt.Sprintf("%s (%s)", v.Outcome, v.Severity), Type: v.Outcome, Body: strings.Join(lines, "\n")}
		switch v.Outcome {
		case engine.Failed:
			c.Failure = p
			s.Failures++
		case engine.CouldNotRun:
			c.Error = p
			s.Errors++
		case engine.NotApplicable:
			c.Skipped = p
			s.Skipped++
		}
		s.Tests++
		s.Cases = append(s.Cases, c)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(s); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func seconds(ns int64) string { return fmt.Sprintf("%.3f", float64(ns)/1e9) }

// renderGitHub prints GitHub Actions workflow commands, which annotate the
// pull request's diff, then the text summary.
func renderGitHub(w io.Writer, d *engine.Decision) error {
	var b strings.Builder
	for _, v := range d.Gates {
		kind := "warning"
		if v.Blocks {
			kind = "error"
		}
		for _, vi := range v.Judged() { // what is not judged here is not annotated
			props := "title=" + ghEscape(v.Name, true)
			if vi.File != "" {
				props = "file=" + ghEscape(vi.File, true) + "," + props
				if vi.Line > 0 {
					props = fmt.Sprintf("file=%s,line=%d,title=%s", ghEscape(vi.File, true), vi.Line, ghEscape(v.Name, true))
				}
			}
			fmt.Fprintf(&b, "::%s %s::%s\n", kind, props, ghEscape(vi.Msg, false))
		}
		if v.Outcome == engine.CouldNotRun {
			for _, r := range v.Reasons {
				fmt.Fprintf(&b, "::%s title=%s::could not run: %s\n", kind, ghEscape(v.Name, true), ghEscape(strings.TrimSpace(r.Code+" "+r.Msg), false))
			}
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return renderDecisionText(w, d)
}

// ghEscape escapes a workflow-command value (properties also escape : and ,).
func ghEscape(s string, property bool) string {
	r := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	s = r.Replace(s)
	if property {
		s = strings.NewReplacer(":", "%3A", ",", "%2C").Replace(s)
	}
	return s
}

func lookupGate(lookup func(string) (*engine.Gate, bool), name string) (*engine.Gate, bool) {
	if lookup == nil {
		return nil, false
	}
	return lookup(name)
}
