package render

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tausik/tausik/engine"
)

// ghPerGate caps the annotations of one gate: GitHub shows only a few
// annotations of each kind per step, so the ones shown must be the ones
// that matter (blocking gates first, then by file and line), and the rest
// are counted, not dropped silently.
const ghPerGate = 10

// ghAnnotation is one workflow command before it is printed.
type ghAnnotation struct {
	file string
	line int
	msg  string
}

// renderGitHub prints GitHub Actions workflow commands, which annotate the
// pull request's diff, then the text summary.
func renderGitHub(w io.Writer, d *engine.Decision) error {
	var b strings.Builder
	gates := slices.Clone(d.Gates)
	slices.SortStableFunc(gates, func(x, y engine.Verdict) int {
		return cmp.Compare(ghRank(y), ghRank(x))
	})
	shown, total := 0, 0
	for _, v := range gates {
		notes := ghAnnotations(v)
		if len(notes) == 0 {
			continue
		}
		kind := "warning"
		if v.Blocks {
			kind = "error"
		}
		title := ghEscape(v.Name, true)
		for _, a := range notes[:min(len(notes), ghPerGate)] {
			props := "title=" + title
			if a.file != "" {
				props = "file=" + ghEscape(a.file, true) + "," + props
				if a.line > 0 {
					props = fmt.Sprintf("file=%s,line=%d,title=%s", ghEscape(a.file, true), a.line, title)
				}
			}
			fmt.Fprintf(&b, "::%s %s::%s\n", kind, props, ghEscape(a.msg, false))
		}
		if more := len(notes) - ghPerGate; more > 0 {
			fmt.Fprintf(&b, "::%s title=%s::and %d more finding(s) of %s not annotated (the summary below lists them)\n", kind, title, more, ghEscape(v.Name, false))
		}
		shown += min(len(notes), ghPerGate)
		total += len(notes)
	}
	if total > 0 {
		fmt.Fprintf(&b, "::notice title=tausik::%d finding(s) in %d gate(s), %d annotated; decision %s\n", total, len(d.Gates), shown, ghEscape(d.ID, false))
	}
	var text strings.Builder
	if err := Text(&text, d); err != nil {
		return err
	}
	b.WriteString(ghInert(text.String()))
	_, err := io.WriteString(w, b.String())
	return err
}

// ghInert keeps text from being read as workflow commands: a line that
// would start one (a file named with a newline and "::error::", a tool's
// message) is printed between ::stop-commands:: and a random resume token,
// as GitHub documents for untrusted output. Text with no such line is
// printed as it is.
func ghInert(text string) string {
	risky := false
	for line := range strings.Lines(text) {
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			risky = true
			break
		}
	}
	if !risky {
		return text
	}
	raw := make([]byte, 16)
	_, _ = rand.Read(raw)
	token := hex.EncodeToString(raw)
	return "::stop-commands::" + token + "\n" + text + "::" + token + "::\n"
}

// ghRank orders gates: blocking, then warning, then the rest.
func ghRank(v engine.Verdict) int {
	switch {
	case v.Blocks:
		return 2
	case v.Outcome == engine.Failed || v.Outcome == engine.CouldNotRun:
		return 1
	}
	return 0
}

// ghAnnotations are what v annotates, by file and line (a finding that
// names no file last); what is not judged here is not annotated.
func ghAnnotations(v engine.Verdict) []ghAnnotation {
	var out []ghAnnotation
	for _, vi := range v.Judged() {
		out = append(out, ghAnnotation{file: vi.File, line: vi.Line, msg: vi.Msg})
	}
	slices.SortStableFunc(out, func(x, y ghAnnotation) int {
		if (x.file == "") != (y.file == "") {
			return cmp.Compare(len(y.file), len(x.file)) // the one with a file first
		}
		return cmp.Or(strings.Compare(x.file, y.file), cmp.Compare(x.line, y.line))
	})
	if v.Outcome == engine.CouldNotRun {
		for _, r := range v.Reasons {
			out = append(out, ghAnnotation{msg: "could not run: " + strings.TrimSpace(r.Code+" "+r.Msg)})
		}
	}
	return out
}
