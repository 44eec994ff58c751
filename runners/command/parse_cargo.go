package command

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/tausik/tausik/facts"
)

// cargoMessage is one line of `cargo … --message-format=json`; only the
// fields tausik reads are declared.
type cargoMessage struct {
	Reason  string `json:"reason"`
	Success *bool  `json:"success"`
	Message *struct {
		Message string `json:"message"`
		Level   string `json:"level"`
		Code    *struct {
			Code string `json:"code"`
		} `json:"code"`
		Spans []struct {
			FileName    string `json:"file_name"`
			LineStart   int64  `json:"line_start"`
			LineEnd     int64  `json:"line_end"`
			ColumnStart int64  `json:"column_start"`
			ColumnEnd   int64  `json:"column_end"`
			IsPrimary   bool   `json:"is_primary"`
			Label       string `json:"label"`
		} `json:"spans"`
	} `json:"message"`
}

var (
	// libtest's line for one test: "test a::b ... ok", "... FAILED" or
	// "... ignored[, reason]"; a doc-test's name holds spaces
	// ("src/lib.rs - add (line 3)").
	cargoTestLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^test (.+) \.\.\. (ok|FAILED|ignored(?:, .*)?)$`)
	})
	// The panic of a failed test: "thread 'a::b' (123) panicked at src/lib.rs:9:9:"
	// with the message on the next line (Rust 1.73 on), or
	// "thread 'a::b' panicked at 'message', src/lib.rs:9:9" (before).
	cargoPanicNew = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^thread '([^']+)'(?: \(\d+\))? panicked at (.+?):(\d+):(\d+):$`)
	})
	cargoPanicOld = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^thread '([^']+)' panicked at '(.*)', (.+?):(\d+):(\d+)$`)
	})
	// libtest's summary of one test binary.
	cargoResult = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^test result: (ok|FAILED)\. `) })
)

// ParseCargo reads the stdout of `cargo check|clippy|test
// --message-format=json`: every compiler message of level error or warning
// that has a primary span becomes a diagnostic (rustc's error code or
// clippy's lint name as its code, the span's label appended to the message),
// with its file relative to root, the directory cargo ran in. The summaries
// rustc adds ("aborting due to…", notes without a span) are not findings.
// Lines that are not JSON are libtest's own output under `cargo test`: when
// any test binary reported a "test result" line, tests holds each failed
// test, located at its panic, and the totals. Output without cargo's
// closing build-finished message is an error: a policy must not read "no
// findings" into a run that never got that far.
func ParseCargo(stdout []byte, root string) ([]facts.Diagnostic, *facts.TestReport, error) {
	diags := []facts.Diagnostic{}
	seen := map[facts.Diagnostic]bool{} // --all-targets reports a lib's error for its test build too
	finished := false
	var text []string
	for i, line := range lines(stdout) {
		if !strings.HasPrefix(line, `{"reason":`) {
			text = append(text, line)
			continue
		}
		var m cargoMessage
		if err := json.NewDecoder(bytes.NewReader([]byte(line))).Decode(&m); err != nil {
			return nil, nil, fmt.Errorf("read cargo JSON line %d: %w", i+1, err)
		}
		switch m.Reason {
		case "build-finished":
			finished = true
		case "compiler-message":
			if d, ok := cargoDiagnostic(m, root); ok && !seen[d] {
				seen[d] = true
				diags = append(diags, d)
			}
		}
	}
	if !finished {
		return nil, nil, errors.New("cargo output has no build-finished message")
	}
	return diags, libtestReport(text, root), nil
}

// cargoDiagnostic turns one compiler message into a diagnostic; ok is false
// for a message that is no finding.
func cargoDiagnostic(m cargoMessage, root string) (facts.Diagnostic, bool) {
	msg := m.Message
	if msg == nil || (msg.Level != "error" && msg.Level != "warning") {
		return facts.Diagnostic{}, false
	}
	for _, s := range msg.Spans {
		if !s.IsPrimary || s.FileName == "" {
			continue
		}
		d := facts.Diagnostic{File: relPath(root, s.FileName), Line: s.LineStart, Column: s.ColumnStart,
			EndLine: s.LineEnd, EndColumn: s.ColumnEnd, Severity: msg.Level, Message: msg.Message}
		if s.Label != "" {
			d.Message += ": " + s.Label
		}
		if msg.Code != nil {
			d.Code = msg.Code.Code
		}
		return d, true
	}
	return facts.Diagnostic{}, false
}

// libtestReport reads libtest's human output (the default format, one
// line per test): nil when no test binary printed its summary (the build
// failed, or this was no test run). A failed test is located at its panic.
func libtestReport(text []string, root string) *facts.TestReport {
	rep := &facts.TestReport{Cases: []facts.TestCase{}}
	summaries := 0
	index := map[string]int{} // test name → its case
	for _, line := range text {
		if m := cargoTestLine().FindStringSubmatch(line); m != nil {
			c := facts.TestCase{Name: m[1], Outcome: "passed"}
			switch {
			case m[2] == "FAILED":
				c.Outcome = "failed"
			case strings.HasPrefix(m[2], "ignored"):
				c.Outcome = "skipped"
				c.Message = strings.TrimPrefix(strings.TrimPrefix(m[2], "ignored"), ", ")
			}
			index[c.Name] = len(rep.Cases)
			rep.Cases = append(rep.Cases, c)
		} else if cargoResult().MatchString(line) {
			summaries++
		}
	}
	if summaries == 0 {
		return nil
	}
	for i, line := range text {
		name, file, lineNo, msg := "", "", "", ""
		if m := cargoPanicNew().FindStringSubmatch(line); m != nil {
			name, file, lineNo = m[1], m[2], m[3]
			if i+1 < len(text) {
				msg = text[i+1]
			}
		} else if m := cargoPanicOld().FindStringSubmatch(line); m != nil {
			name, msg, file, lineNo = m[1], m[2], m[3], m[4]
		}
		if j, ok := index[name]; ok && name != "" && rep.Cases[j].Outcome == "failed" && rep.Cases[j].FailFile == "" {
			rep.Cases[j].FailFile, rep.Cases[j].FailLine, rep.Cases[j].Message = relPath(root, file), atoi(lineNo), clip(msg, maxMessage)
		}
	}
	for _, c := range rep.Cases {
		rep.Tests++
		switch c.Outcome {
		case "passed":
			rep.Passed++
		case "failed":
			rep.Failures++
		case "skipped":
			rep.Skipped++
		}
	}
	return rep
}
