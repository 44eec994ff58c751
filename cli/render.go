package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/tausik/tausik/engine"
)

// decisionFormats are the output formats of an evaluation.
var decisionFormats = []string{"text", "json", "sarif", "junit", "github", "markdown"}

// renderDecision prints a decision in format. Config warnings also go to
// stderr so a JSON consumer on stdout still sees them in a terminal.
func renderDecision(g *globals, e *engine.Engine, format string, d *engine.Decision) error {
	for _, w := range d.Warnings {
		fmt.Fprintf(g.stderr, "warning: %s\n", w)
	}
	return renderFormat(g.stdout, g, e, format, d)
}

// renderFormat writes d in format to w.
func renderFormat(w io.Writer, g *globals, e *engine.Engine, format string, d *engine.Decision) error {
	switch format {
	case "json":
		return writeJSON(w, jsonDecision{d, summarize(d)})
	case "sarif":
		return renderSARIF(w, sarifInputOf(e), d)
	case "junit":
		return renderJUnit(w, d)
	case "github":
		return renderGitHub(w, d)
	case "markdown":
		return renderMarkdown(w, d, mdLinkBase(g.getenv))
	default:
		return renderDecisionText(w, d)
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// renderDecisionText prints one line per gate, then its violations or reasons,
// then a summary line with the decision id.
func renderDecisionText(w io.Writer, d *engine.Decision) error {
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
				fmt.Fprintf(&b, "    %s: %s\n", r.Code, firstLine(r.Msg))
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
		var held []engine.Violation
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
func violationLine(v engine.Violation) string {
	if v.File == "" || strings.HasPrefix(v.Msg, v.File) {
		return v.Msg
	}
	if v.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", v.File, v.Line, v.Msg)
	}
	return v.File + ": " + v.Msg
}

func firstLine(s string) string {
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
