package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/policy"
)

func TestRenderMarkdown(t *testing.T) {
	d := sampleDecision()
	d.Gates[0].Violations = append(d.Gates[0].Violations,
		policy.Violation{Msg: "old debt", File: "legacy.py", State: engine.StateBaselined},
		policy.Violation{Msg: "<script>x</script> | *b*", File: "a b.py", Line: 2})
	var buf bytes.Buffer
	if err := renderMarkdown(&buf, d, "https://github.com/acme/app/blob/abc/"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"## ❌ tausik commit: blocked\n",
		"4 gate(s), 2 blocking, 0 warning(s); decision `01TEST`",
		"| Gate | Outcome | Severity | Findings | Held by baseline | Elsewhere |",
		"| filesize | FAILED (blocks) | block | 3 | 1 | 0 |",
		"| tdd\\_order | NOT_APPLICABLE | warn | 0 | 0 | 0 |",
		"### filesize (FAILED, blocks)",
		// by file and line, linked to the commit's blob at the line
		"- [a b.py:2](https://github.com/acme/app/blob/abc/a%20b.py#L2) &lt;script&gt;x&lt;/script&gt; \\| \\*b\\*\n- [dir/a:b.py:7](https://github.com/acme/app/blob/abc/dir/a:b.py#L7) a, b: 9 lines\n- no place\n",
		"1 finding(s) held by the baseline (not blocking).",
		"### ruff (COULD_NOT_RUN, blocks)\n\n- could not run: not\\_found ruff is missing\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "<script>") || strings.Contains(out, "### ok") || strings.Contains(out, "old debt") {
		t.Errorf("markdown shows raw HTML, a passing gate's section or a held finding:\n%s", out)
	}
}

// TestRenderMarkdownBounded: a gate with hundreds of findings shows
// mdPerGate of them and says how many more; all gates together stay
// within mdTotal.
func TestRenderMarkdownBounded(t *testing.T) {
	d := &engine.Decision{ID: "01B", Request: engine.RequestRecord{Trigger: "commit"}}
	for g := range 15 {
		v := engine.Verdict{Name: fmt.Sprintf("gate%02d", g), Severity: "warn", Outcome: engine.Failed}
		for i := range 300 {
			v.Violations = append(v.Violations, policy.Violation{Msg: "m", File: fmt.Sprintf("f%03d.py", i), Line: 1})
		}
		d.Gates = append(d.Gates, v)
	}
	var buf bytes.Buffer
	if err := renderMarkdown(&buf, d, ""); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := strings.Count(out, "\n- ["); n != mdTotal {
		t.Errorf("%d findings listed, want the cap %d", n, mdTotal)
	}
	if !strings.Contains(out, "- [f000.py:1](f000.py#L1) m\n") || !strings.Contains(out, "- … and 280 more") || !strings.Contains(out, "- … and 300 more") {
		t.Errorf("relative links or the counts of the rest are missing:\n%s", out[:min(len(out), 2000)])
	}
	if len(out) > 64<<10 {
		t.Errorf("summary is %d bytes", len(out))
	}
}

// TestRenderGitHubOrderAndCap: blocking gates first, each gate's
// annotations by file and line, at most ghPerGate each and a line counting
// the rest.
func TestRenderGitHubOrderAndCap(t *testing.T) {
	warn := engine.Verdict{Name: "warned", Severity: "warn", Outcome: engine.Failed}
	for i := 15; i > 0; i-- {
		warn.Violations = append(warn.Violations, policy.Violation{Msg: "w", File: "z.py", Line: i})
	}
	block := engine.Verdict{Name: "blocker", Severity: "block", Outcome: engine.Failed, Blocks: true,
		Violations: []policy.Violation{{Msg: "nowhere"}, {Msg: "b2", File: "b.py", Line: 20}, {Msg: "b1", File: "b.py", Line: 3}, {Msg: "a", File: "a.py", Line: 9}}}
	d := &engine.Decision{ID: "01G", Request: engine.RequestRecord{Trigger: "commit"}, Gates: []engine.Verdict{warn, block}, Blocked: true}
	var buf bytes.Buffer
	if err := renderGitHub(&buf, d); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	want := []string{
		"::error file=a.py,line=9,title=blocker::a",
		"::error file=b.py,line=3,title=blocker::b1",
		"::error file=b.py,line=20,title=blocker::b2",
		"::error title=blocker::nowhere",
		"::warning file=z.py,line=1,title=warned::w",
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d = %q, want %q", i, lines[i], w)
		}
	}
	if lines[13] != "::warning file=z.py,line=10,title=warned::w" || lines[14] != "::warning title=warned::and 5 more finding(s) of warned not annotated (the summary below lists them)" {
		t.Errorf("cap:\n%s", buf.String())
	}
	if lines[15] != "::notice title=tausik::19 finding(s) in 2 gate(s), 14 annotated; decision 01G" {
		t.Errorf("summary line = %q", lines[15])
	}
}

// TestRenderMarkdownHostileFileName: a file name and a message with a
// line break, '|' and a backquote stay one list item: the link text and
// the message are escaped, the link target percent-encoded, and the gate
// table keeps its rows.
func TestRenderMarkdownHostileFileName(t *testing.T) {
	d := &engine.Decision{ID: "01MD", Request: engine.RequestRecord{Trigger: "commit"}, Blocked: true, Gates: []engine.Verdict{
		{Name: "filesize", Severity: "block", Outcome: engine.Failed, Blocks: true,
			Violations: []policy.Violation{{Msg: "too | long `x`\nsecond line", File: "a|b`c\nd.go", Line: 3}}},
		{Name: "ok", Severity: "block", Outcome: engine.Passed},
	}}
	var buf bytes.Buffer
	if err := renderMarkdown(&buf, d, ""); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	item := "- [a\\|b\\`c d.go:3](a%7Cb%60c%0Ad.go#L3) too \\| long \\`x\\` second line\n"
	if !strings.Contains(out, item) {
		t.Errorf("markdown lacks the finding as one item %q:\n%s", item, out)
	}
	var rows int
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, "|") {
			rows++
			if strings.Count(strings.ReplaceAll(line, "\\|", ""), "|") != 7 {
				t.Errorf("table row with a cell too many or too few: %q", line)
			}
		}
	}
	if rows != 4 {
		t.Errorf("%d table lines, want a header, a rule and 2 gates:\n%s", rows, out)
	}
}
