package render

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strconv"
	"strings"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/baseline"
	"github.com/tausik/tausik/internal/buildinfo"
)

// SARIF 2.1.0, the format code-scanning dashboards ingest: one rule per
// gate, one result per violation (or per reason, for a gate that could not
// run). Code scanning refuses a result without a location, so a finding
// that names no file points at the project's configuration (or the
// repository root), and a gate that could not run is also a tool execution
// notification. Each result carries a partial fingerprint built from the
// baseline's identity of the finding, so a dashboard tracks it across
// commits exactly as the baseline does.

const (
	sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"
	// sarifFingerprintKey names tausik's partial fingerprint; the /v1
	// changes whenever the identity it hashes does.
	sarifFingerprintKey = "tausikFinding/v1"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
	Properties  map[string]any    `json:"properties"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string        `json:"id"`
	ShortDescription *sarifMessage `json:"shortDescription,omitempty"`
	FullDescription  *sarifMessage `json:"fullDescription,omitempty"`
	Help             *sarifMessage `json:"help,omitempty"`
}

type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level          string          `json:"level"`
	Message        sarifMessage    `json:"message"`
	AssociatedRule sarifRuleRef    `json:"associatedRule"`
	Locations      []sarifLocation `json:"locations"`
}

type sarifRuleRef struct {
	ID    string `json:"id"`
	Index int    `json:"index"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]any    `json:"properties,omitempty"`
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

// renderSARIF writes d as SARIF.
func renderSARIF(w io.Writer, in Options, d *engine.Decision) error {
	if in.Fileless == "" {
		in.Fileless = "."
	}
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{Name: "tausik", Version: buildinfo.Read().Version,
			InformationURI: "https://github.com/tausik/tausik", Rules: []sarifRule{}}},
		Invocations: []sarifInvocation{{ExecutionSuccessful: true}},
		Results:     []sarifResult{},
		Properties:  map[string]any{"decision_id": d.ID, "trigger": d.Request.Trigger, "blocked": d.Blocked, "exit_code": d.ExitCode},
	}
	for i, v := range d.Gates {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(in, v))
		level := "warning"
		if v.Blocks {
			level = "error"
		}
		seen := map[string]int{}
		for _, vi := range v.Violations {
			r := sarifResult{RuleID: v.Name, RuleIndex: i, Level: level, Message: sarifMessage{Text: nonEmpty(vi.Msg, v.Outcome)},
				Locations: locate(in, vi.File, vi.Line)}
			fp := baseline.FingerprintOf(v.Name, vi)
			r.PartialFingerprints = fingerprints(strings.Join([]string{fp.Gate, fp.Rule, fp.File, fp.Key}, "\x00"), seen)
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
			run.Results = append(run.Results, r)
		}
		if v.Outcome != engine.CouldNotRun {
			continue
		}
		for _, rs := range v.Reasons {
			msg := sarifMessage{Text: "could not run: " + strings.TrimSpace(rs.Code+" "+rs.Msg)}
			run.Results = append(run.Results, sarifResult{RuleID: v.Name, RuleIndex: i, Level: level, Message: msg,
				Locations: locate(in, "", 0), PartialFingerprints: fingerprints(strings.Join([]string{v.Name, "could_not_run", rs.Code}, "\x00"), seen)})
			run.Invocations[0].ToolExecutionNotifications = append(run.Invocations[0].ToolExecutionNotifications,
				sarifNotification{Level: level, Message: msg, AssociatedRule: sarifRuleRef{ID: v.Name, Index: i}, Locations: locate(in, "", 0)})
		}
	}
	return JSON(w, sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// sarifRuleOf is gate v's rule: its gate.yaml's description and what it
// prevents, as the rule's help.
func sarifRuleOf(in Options, v engine.Verdict) sarifRule {
	rule := sarifRule{ID: v.Name}
	g, ok := lookupGate(in.Gate, v.Name)
	if !ok || g.Description == "" {
		return rule
	}
	rule.ShortDescription = &sarifMessage{Text: g.Description}
	help := sarifMessage{Text: g.Description, Markdown: "**" + v.Name + "**: " + g.Description}
	if g.Prevents != "" {
		rule.FullDescription = &sarifMessage{Text: g.Prevents}
		help.Text += "\n\nPrevents: " + g.Prevents
		help.Markdown += "\n\n**Prevents:** " + g.Prevents
	}
	help.Markdown += "\n\n`tausik policy explain " + v.Name + "` shows the gate's configuration and where each key was set."
	rule.Help = &help
	return rule
}

// locate is a result's location: its file and line, or, for a finding
// that names no file, the project's config file (or the repository root).
func locate(in Options, file string, line int) []sarifLocation {
	if file == "" {
		return []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: uriPath(in.Fileless, sarifPathKeeps)}}}}
	}
	loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: uriPath(file, sarifPathKeeps)}}}
	if line > 0 {
		loc.PhysicalLocation.Region = &sarifRegion{StartLine: line}
	}
	return []sarifLocation{loc}
}

// fingerprints hashes a finding's identity; the n-th finding of one
// identity in a run gets ":n", so findings the baseline counts together
// stay apart on a dashboard, each stable while the ones before it are.
func fingerprints(identity string, seen map[string]int) map[string]string {
	seen[identity]++
	sum := sha256.Sum256([]byte(identity))
	v := hex.EncodeToString(sum[:16])
	if n := seen[identity]; n > 1 {
		v += ":" + strconv.Itoa(n)
	}
	return map[string]string{sarifFingerprintKey: v}
}

func nonEmpty(s, fallback string) string {
	if strings.TrimSpace(s) == "" {
		return fallback
	}
	return s
}
