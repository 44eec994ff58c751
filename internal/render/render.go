// Package render writes an evaluation's decision in each output format
// tausik prints (text, JSON, SARIF, JUnit XML, GitHub workflow commands,
// Markdown) and the text views of the application layer's results. It
// holds no rule and no command line: cli and mcp call it with what
// internal/app and the engine returned.
package render

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/config"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
)

// Formats are the output formats of an evaluation.
var Formats = []string{"text", "json", "sarif", "junit", "github", "markdown"}

// Options is what some formats need beside the decision.
type Options struct {
	// Gate looks a gate's gate.yaml up by name (SARIF's rule help); nil
	// leaves the rules without help.
	Gate func(string) (*gate.Gate, bool)
	// Fileless is where a SARIF finding that names no file points: the
	// project's config file, or "." (the default) for the repository root.
	Fileless string
	// LinkBase prefixes Markdown's file links ("" keeps them relative).
	LinkBase string
}

// OptionsOf reads the options from the engine that made the decision and
// from the environment (a GitHub Actions run's commit for Markdown links).
func OptionsOf(e *engine.Engine, getenv func(string) string) Options {
	o := Options{Gate: e.Gate, Fileless: ".", LinkBase: mdLinkBase(getenv)}
	for _, f := range e.ConfigFiles() {
		if f.Tier == config.TierProject && filepath.IsLocal(f.File) {
			o.Fileless = f.File
		}
	}
	return o
}

// Decision writes d in format to w; an unknown format is text.
func Decision(w io.Writer, format string, d *engine.Decision, o Options) error {
	switch format {
	case "json":
		return JSON(w, jsonDecision{d, summarize(d)})
	case "sarif":
		return renderSARIF(w, o, d)
	case "junit":
		return renderJUnit(w, d)
	case "github":
		return renderGitHub(w, d)
	case "markdown":
		return renderMarkdown(w, d, o.LinkBase)
	default:
		return Text(w, d)
	}
}

// JSON writes v as indented JSON, with <, > and & as they are.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Text writes d for a person: one line per gate, then its violations or
// reasons, then a summary line with the decision id.
func Text(w io.Writer, d *engine.Decision) error {
	var b strings.Builder
	width := 4
	for _, v := range d.Gates {
		width = max(width, len(v.Name))
	}
	blocking, warned := 0, 0
	for _, v := range d.Gates {
		tag := ""
		switch {
		case v.Blocks:
			tag = "  (blocks)"
			blocking++
		case v.Outcome == engine.Failed || v.Outcome == engine.CouldNotRun:
			tag = "  (warning)"
			warned++
		}
		fmt.Fprintf(&b, "%-14s %-*s  %s%s\n", v.Outcome, width, v.Name, v.Severity, tag)
		for _, vi := range v.Judged() {
			fmt.Fprintf(&b, "    %s\n", violationLine(vi))
		}
		writeHeld(&b, v)
		if v.Reused != "" {
			fmt.Fprintf(&b, "    reused: the verdict logged in %s, from the same input digest\n", v.Reused)
		}
		for _, r := range v.Reasons {
			if r.Msg != "" {
				fmt.Fprintf(&b, "    %s: %s\n", r.Code, FirstLine(r.Msg))
			} else {
				fmt.Fprintf(&b, "    %s\n", r.Code)
			}
		}
	}
	if len(d.Gates) == 0 {
		fmt.Fprintf(&b, "no gate listens to %s\n", d.Request.Trigger)
	}
	for _, n := range engine.DisabledNotes(d) {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	verdict := "passed"
	if d.Blocked {
		verdict = "blocked"
	}
	fmt.Fprintf(&b, "%s: %d gate(s), %d blocking, %d warning(s); decision %s\n", verdict, len(d.Gates), blocking, warned, d.ID)
	_, err := io.WriteString(w, b.String())
	return err
}

// heldShown is how many violations of each state the text shows.
const heldShown = 3

// stateLabels say in words why a violation with a state does not block.
var stateLabels = []struct{ state, label string }{
	{engine.StateElsewhere, "elsewhere, not judged here"},
	{engine.StateBaselined, "held by the baseline"},
}

// writeHeld writes, for each state, how many of v's violations have it and
// the first few of them (json lists them all, each with its state).
func writeHeld(b *strings.Builder, v engine.Verdict) {
	for _, s := range stateLabels {
		var held []policy.Violation
		for _, vi := range v.Violations {
			if vi.State == s.state {
				held = append(held, vi)
			}
		}
		if len(held) == 0 {
			continue
		}
		fmt.Fprintf(b, "    %d %s:\n", len(held), s.label)
		for _, vi := range held[:min(len(held), heldShown)] {
			fmt.Fprintf(b, "      %s\n", violationLine(vi))
		}
		if len(held) > heldShown {
			fmt.Fprintf(b, "      … and %d more (--format json lists them all)\n", len(held)-heldShown)
		}
	}
}

// violationLine prefixes a violation with its location unless the message
// already starts with the file it names.
func violationLine(v policy.Violation) string {
	if v.File == "" || strings.HasPrefix(v.Msg, v.File) {
		return v.Msg
	}
	if v.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", v.File, v.Line, v.Msg)
	}
	return v.File + ": " + v.Msg
}

// FirstLine is s up to its first line break.
func FirstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// jsonDecision is the decision as --format json prints it: the decision
// (each violation with its state: none when judged here, "baselined",
// "elsewhere") and a summary counting them apart.
type jsonDecision struct {
	*engine.Decision
	Summary decisionSummary `json:"summary"`
}

// decisionSummary counts a decision's violations by state.
type decisionSummary struct {
	Judged    int `json:"judged"`
	Baselined int `json:"baselined"`
	Elsewhere int `json:"elsewhere"`
}

func summarize(d *engine.Decision) decisionSummary {
	var s decisionSummary
	for _, v := range d.Gates {
		for _, vi := range v.Violations {
			switch vi.State {
			case engine.StateBaselined:
				s.Baselined++
			case engine.StateElsewhere:
				s.Elsewhere++
			default:
				s.Judged++
			}
		}
	}
	return s
}
