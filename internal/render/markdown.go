package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/tausik/tausik/engine"
)

// Markdown: the summary a CI job page shows (GitHub's job summary, a
// merge-request note, any CI that renders Markdown). Bounded, because job
// summaries are: at most mdPerGate findings of a gate and mdTotal in all,
// then "and N more".
const (
	mdPerGate = 20
	mdTotal   = 200
	// mdMsgMax caps one finding's message (a tool's output can be long).
	mdMsgMax = 300
)

// mdLinkBase is where file links point: the commit's tree on the forge
// when GitHub Actions says which (GITHUB_SERVER_URL, GITHUB_REPOSITORY,
// GITHUB_SHA), else nothing, and links stay relative to the repository.
func mdLinkBase(getenv func(string) string) string {
	server, repo, sha := getenv("GITHUB_SERVER_URL"), getenv("GITHUB_REPOSITORY"), getenv("GITHUB_SHA")
	if server == "" || repo == "" || sha == "" {
		return ""
	}
	return strings.TrimRight(server, "/") + "/" + repo + "/blob/" + sha + "/"
}

// renderMarkdown writes d's outcome, a table of its gates, and each
// failing gate's findings with links to file and line.
func renderMarkdown(w io.Writer, d *engine.Decision, linkBase string) error {
	var b strings.Builder
	blocking, warned := 0, 0
	for _, v := range d.Gates {
		switch {
		case v.Blocks:
			blocking++
		case v.Outcome == engine.Failed || v.Outcome == engine.CouldNotRun:
			warned++
		}
	}
	verdict, mark := "passed", "✅"
	if d.Blocked {
		verdict, mark = "blocked", "❌"
	}
	fmt.Fprintf(&b, "## %s tausik %s: %s\n\n", mark, mdEscape(d.Request.Trigger), verdict)
	fmt.Fprintf(&b, "%d gate(s), %d blocking, %d warning(s); decision `%s`\n\n", len(d.Gates), blocking, warned, mdCode(d.ID))
	if len(d.Gates) == 0 {
		fmt.Fprintf(&b, "No gate listens to %s.\n", mdEscape(d.Request.Trigger))
	} else {
		writeMDTable(&b, d)
	}
	budget := mdTotal
	for _, v := range d.Gates {
		budget = writeMDGate(&b, v, linkBase, budget)
	}
	for _, n := range engine.DisabledNotes(d) {
		fmt.Fprintf(&b, "\n> %s\n", mdEscape(n))
	}
	for _, warn := range d.Warnings {
		fmt.Fprintf(&b, "\n> warning: %s\n", mdEscape(warn))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeMDTable writes one row per gate: outcome, severity, and its
// findings counted apart by state.
func writeMDTable(b *strings.Builder, d *engine.Decision) {
	b.WriteString("| Gate | Outcome | Severity | Findings | Held by baseline | Elsewhere |\n")
	b.WriteString("| --- | --- | --- | ---: | ---: | ---: |\n")
	for _, v := range d.Gates {
		outcome := v.Outcome
		if v.Blocks {
			outcome += " (blocks)"
		}
		judged, held, elsewhere := countStates(v)
		fmt.Fprintf(b, "| %s | %s | %s | %d | %d | %d |\n", mdEscape(v.Name), outcome, mdEscape(v.Severity), judged, held, elsewhere)
	}
}

// countStates counts v's violations judged here, held by the baseline and
// judged elsewhere.
func countStates(v engine.Verdict) (judged, held, elsewhere int) {
	for _, vi := range v.Violations {
		switch vi.State {
		case engine.StateBaselined:
			held++
		case engine.StateElsewhere:
			elsewhere++
		default:
			judged++
		}
	}
	return judged, held, elsewhere
}

// writeMDGate writes a failing gate's section: its findings (at most
// mdPerGate, and no more than budget in all) and why it could not run;
// it returns the budget left.
func writeMDGate(b *strings.Builder, v engine.Verdict, linkBase string, budget int) int {
	notes := ghAnnotations(v) // judged findings by file and line, then why it could not run
	_, held, _ := countStates(v)
	if len(notes) == 0 && held == 0 {
		return budget
	}
	state := v.Outcome
	if v.Blocks {
		state += ", blocks"
	}
	fmt.Fprintf(b, "\n### %s (%s)\n\n", mdEscape(v.Name), state)
	n := min(len(notes), mdPerGate, budget)
	for _, a := range notes[:n] {
		fmt.Fprintf(b, "- %s\n", mdFinding(a, linkBase))
	}
	if more := len(notes) - n; more > 0 {
		fmt.Fprintf(b, "- … and %d more (`tausik policy eval --format json` lists them all)\n", more)
	}
	if held > 0 {
		fmt.Fprintf(b, "\n%d finding(s) held by the baseline (not blocking).\n", held)
	}
	return budget - n
}

// mdFinding is one finding: its file:line as a link, then its message.
func mdFinding(a ghAnnotation, linkBase string) string {
	msg := mdEscape(clip(a.msg, mdMsgMax))
	if a.file == "" {
		return msg
	}
	loc, anchor := a.file, ""
	if a.line > 0 {
		loc, anchor = fmt.Sprintf("%s:%d", a.file, a.line), fmt.Sprintf("#L%d", a.line)
	}
	return fmt.Sprintf("[%s](%s%s%s) %s", mdEscape(loc), linkBase, uriPath(a.file, mdPathKeeps), anchor, msg)
}

// mdEscape keeps text text: no HTML, no emphasis, links or table cells
// made by a file name or a message.
var mdEscaper = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;", "\\", "\\\\", "`", "\\`", "*", "\\*", "_", "\\_",
	"[", "\\[", "]", "\\]", "|", "\\|", "#", "\\#", "\r", " ", "\n", " ",
)

func mdEscape(s string) string { return mdEscaper.Replace(s) }

// mdCode is s inside a code span: no backquote, no line break.
func mdCode(s string) string {
	return strings.NewReplacer("`", "'", "\n", " ", "\r", " ").Replace(s)
}

// clip cuts s to at most n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n]) + "…"
}
