package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// mdEscaper neutralises what Markdown or embedded HTML would read as markup
// in a string from the log.
var mdEscaper = strings.NewReplacer("\\", "\\\\", "`", "\\`", "*", "\\*", "_", "\\_", "[", "\\[", "]", "\\]",
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "|", "\\|", "#", "\\#", "\n", " ", "\r", " ")

func md(s string) string { return mdEscaper.Replace(s) }

// mdN is a count linked to its query in the Queries section.
func mdN(c Count) string {
	if c.Q == "" {
		return fmt.Sprint(c.N)
	}
	return fmt.Sprintf("[%d](#%s)", c.N, c.Q)
}

// WriteMarkdown writes r as Markdown: the HTML page's content, with
// the charts as their tables.
func WriteMarkdown(w io.Writer, r *Report) error {
	b := bufio.NewWriter(w)
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("# tausik audit report\n\nDecisions: %s.", md(r.Range))
	if r.Generated != "" {
		p(" Generated %s.", r.Generated)
	}
	p("\n\n%s decisions, %s blocked, %s passed (task-state entries count as passed).\n\n", mdN(r.Total), mdN(r.Blocked), mdN(r.Passed))
	for _, section := range []func(mdPrinter, *Report){mdVerification, mdOverTime, mdBlocks, mdTrails, mdAudits, mdQueries} {
		section(p, r)
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// mdPrinter writes formatted Markdown to the report.
type mdPrinter func(format string, a ...any)

// mdVerification: the log's verification and each checkpoint's verdict.
func mdVerification(p mdPrinter, r *Report) {
	p("## Verification\n\n")
	if v := r.Verify; v.Log.OK {
		p("The whole log verifies: %d decisions, chain head `%s`.\n\n", v.Log.Size, v.Log.Head)
	} else {
		p("**The log is broken:** %s. %d decisions verified intact before the break.\n\n", md(v.Log.Break.String()), v.Log.Verified)
	}
	if len(r.Verify.Anchors) > 0 {
		p("| checkpoint | verdict | origin | size | signature | detail |\n|---|---|---|---:|---|---|\n")
		sig := "not checked (no --pub)"
		if r.Verify.Pinned {
			sig = "checked"
		}
		for _, a := range r.Verify.Anchors {
			p("| %s | %s | %s | %d | %s | %s |\n", md(a.Name), a.Kind, md(a.Origin), a.Size, sig, md(a.Detail))
		}
		p("\n")
	}
	if r.ReadError != "" {
		p("**The decisions cannot be read**, so nothing below counts them: %s\n\n", md(r.ReadError))
	}
	if r.Unprotected != "" {
		p("**Unprotected:** %s.\n\n", r.Unprotected)
	}
	p("Reproduce: %s\n\n", codeSpan(r.VerifyLine))
}

// mdOverTime: decisions per day or hour, and verdicts by gate.
func mdOverTime(p mdPrinter, r *Report) {
	unit := "day"
	if r.Hourly {
		unit = "hour"
	}
	p("## Decisions over time\n\n| %s (UTC) | decisions | passed | blocked |\n|---|---:|---:|---:|\n", unit)
	for _, bk := range r.Buckets {
		p("| %s | %s | %s | %s |\n", bk.Label, mdN(bk.Total), mdN(bk.Passed), mdN(bk.Blocked))
	}
	p("\n## Verdicts by gate\n\n| gate | %s | blocked |\n|---|%s---:|\n", strings.Join(r.Outcomes, " | "), strings.Repeat("---:|", len(r.Outcomes)))
	for _, g := range r.Gates {
		cells := make([]string, len(g.Outcomes))
		for i, c := range g.Outcomes {
			cells[i] = mdN(c)
		}
		p("| %s | %s | %s |\n", md(g.Name), strings.Join(cells, " | "), mdN(g.Blocks))
	}
}

// mdBlocks: the blocks by gate, requester and task.
func mdBlocks(p mdPrinter, r *Report) {
	p("\n## Blocks\n")
	for _, t := range []struct {
		name, key string
		rows      []KeyCount
	}{{"By gate", "gate", r.ByGate}, {"By requester", "requester", r.ByRequester}, {"By task", "task", r.ByTask}} {
		p("\n### %s\n\n", t.name)
		if len(t.rows) == 0 {
			p("None blocked.\n")
			continue
		}
		p("| %s | blocked | of |\n|---|---:|---:|\n", t.key)
		for _, k := range t.rows {
			p("| %s | %s | %s |\n", md(k.Key), mdN(k.Blocked), mdN(k.Total))
		}
	}
}

// mdTrails: each task's trail of events.
func mdTrails(p mdPrinter, r *Report) {
	p("\n## Task trails\n")
	for _, t := range r.Tasks {
		p("\n### Task %s\n\n%s decisions, %s blocked, %s refused writes. Status %s, scope %s.", md(t.Slug), mdN(t.Total), mdN(t.Blocked),
			mdN(t.RefusedWrites), md(t.FinalStatus), md(t.FinalScope))
		if t.DoneEvidence != "" {
			p(" Closed on: %s.", md(t.DoneEvidence))
		}
		p("\n\n")
		mdEvents(p, t.Events)
		if t.Omitted > 0 {
			p("\n%d more events not listed.\n", t.Omitted)
		}
	}
}

// mdAudits: waivers, refused weakenings, scope and tier changes, gates
// switched off.
func mdAudits(p mdPrinter, r *Report) {
	p("\n## Waivers\n\n")
	mdEvents(p, r.Waivers)
	p("\n## Refused weakenings and other warnings\n\n")
	if len(r.Notes) > 0 {
		p("| warning | refused | first | last |\n|---|---|---|---|\n")
		for _, n := range r.Notes {
			p("| %s | %t | %s %s | %s %s |\n", md(n.Text), n.Refused, n.First.Time, n.First.ID, n.Last.Time, n.Last.ID)
		}
	}
	p("\n## Scope and tier changes\n\n")
	mdEvents(p, r.TaskChanges)
	p("\n## Gates switched off by a tier\n\n")
	if len(r.Switched) > 0 {
		p("| gate | own severity | tier | file | first seen | last seen |\n|---|---|---|---|---|---|\n")
		for _, s := range r.Switched {
			p("| %s | %s | %s | %s | %s %s | %s %s |\n", md(s.Gate), md(s.Severity), md(s.Tier), md(s.File), s.First.Time, s.First.ID, s.Last.Time, s.Last.ID)
		}
	}
}

// mdQueries: the `log list` command behind each number.
func mdQueries(p mdPrinter, r *Report) {
	p("\n## Queries\n\nEach number above is the count of decisions the command of its link returns.\n\n")
	for _, q := range r.Queries {
		p("- <a id=\"%s\"></a>%s: %s\n", q.ID, q.ID, codeSpan(q.Line))
	}
}

// codeSpan is s as a Markdown code span, which shows its text as it is:
// the fence is one backtick longer than the longest run inside.
func codeSpan(s string) string {
	run, longest := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

func mdEvents(p func(string, ...any), evs []Event) {
	if len(evs) == 0 {
		p("None.\n")
		return
	}
	p("| time | decision | what | requester | detail |\n|---|---|---|---|---|\n")
	for _, e := range evs {
		p("| %s | %s | %s | %s | %s |\n", e.Time, e.ID, md(e.Kind), md(e.Requester), md(e.Detail))
	}
}
