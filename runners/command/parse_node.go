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

var (
	// tscLine is one diagnostic of `tsc --pretty false`:
	// "src/a.ts(3,7): error TS2322: message", or one without a file
	// ("error TS18003: message") for the project as a whole.
	tscLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:(.+?)\((\d+),(\d+)\): )?(error|warning|message) (TS\d+): (.*)$`)
	})
	// jsFrame is a JavaScript stack frame's location: "(/abs/a.test.js:3:15)"
	// or "at /abs/a.test.js:3:15".
	jsFrame = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:\(|at )((?:file://)?[^\s()]+?):(\d+):\d+\)?`)
	})
	// ansiEscape is a terminal colour sequence, which test runners put in
	// their messages.
	ansiEscape = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\x1b\[[0-9;]*m`) })
)

// ParseTsc reads `tsc --noEmit --pretty false` output: each diagnostic with
// its file, line, column, code ("TS2322") and severity; a diagnostic of the
// project as a whole (a tsconfig error, no inputs) has no file. Lines that
// continue a message (indented) are skipped.
func ParseTsc(out []byte, root string) []facts.Diagnostic {
	diags := []facts.Diagnostic{}
	for _, line := range lines(out) {
		m := tscLine().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		d := facts.Diagnostic{Line: atoi(m[2]), Column: atoi(m[3]), Severity: m[4], Code: m[5], Message: m[6]}
		if m[1] != "" {
			d.File = relPath(root, m[1])
		}
		diags = append(diags, d)
	}
	return diags
}

// eslintFile is one file of `eslint -f json`; only the fields tausik reads.
type eslintFile struct {
	FilePath string `json:"filePath"`
	Messages []struct {
		RuleID    *string `json:"ruleId"`
		Severity  int     `json:"severity"`
		Message   string  `json:"message"`
		Line      int64   `json:"line"`
		Column    int64   `json:"column"`
		EndLine   int64   `json:"endLine"`
		EndColumn int64   `json:"endColumn"`
		Fix       json.RawMessage
	} `json:"messages"`
}

// ParseEslint reads eslint's JSON formatter: one diagnostic per message,
// severity "error" (2) or "warning" (1), the rule id as code ("" for a
// parse error). Anything but a JSON array of files is an error.
func ParseEslint(stdout []byte, root string) ([]facts.Diagnostic, error) {
	trimmed := bytes.TrimSpace(stdout)
	if len(trimmed) == 0 || trimmed[0] != '[' {
		return nil, errors.New("eslint output is not a JSON array")
	}
	var files []eslintFile
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(&files); err != nil {
		return nil, fmt.Errorf("read eslint JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("read eslint JSON: data after the array")
	}
	diags := []facts.Diagnostic{}
	for i, f := range files {
		if f.FilePath == "" {
			return nil, fmt.Errorf("read eslint JSON: file %d has no filePath", i+1)
		}
		for _, m := range f.Messages {
			d := facts.Diagnostic{File: relPath(root, f.FilePath), Line: m.Line, Column: m.Column,
				EndLine: m.EndLine, EndColumn: m.EndColumn, Message: m.Message, Severity: "warning",
				Fixable: len(m.Fix) > 0 && string(m.Fix) != "null"}
			if m.Severity >= 2 {
				d.Severity = "error"
			}
			if m.RuleID != nil {
				d.Code = *m.RuleID
			}
			diags = append(diags, d)
		}
	}
	return diags, nil
}

// jestReport is jest's `--json` report, which vitest's json reporter
// writes too; only the fields tausik reads.
type jestReport struct {
	TestResults *[]struct {
		Name             string `json:"name"`
		Status           string `json:"status"`
		Message          string `json:"message"`
		AssertionResults []struct {
			FullName        string   `json:"fullName"`
			Status          string   `json:"status"`
			FailureMessages []string `json:"failureMessages"`
			Duration        *float64 `json:"duration"`
			Location        *struct {
				Line int64 `json:"line"`
			} `json:"location"`
		} `json:"assertionResults"`
	} `json:"testResults"`
}

// ParseJest reads a jest or vitest JSON report into test results: each
// assertion a case (passed, failed, skipped for pending, skipped, todo or
// disabled), and a test file that failed without a failing assertion (it
// did not load) an error case named after the file. The failure's location
// is the last stack frame in a project file.
func ParseJest(data []byte, root string) (*facts.TestReport, error) {
	var rep jestReport
	if err := json.Unmarshal(bytes.TrimSpace(data), &rep); err != nil {
		return nil, fmt.Errorf("read test report JSON: %w", err)
	}
	if rep.TestResults == nil {
		return nil, errors.New("read test report JSON: no testResults")
	}
	out := &facts.TestReport{Cases: []facts.TestCase{}}
	for _, f := range *rep.TestResults {
		file := relPath(root, strings.TrimPrefix(f.Name, "file://"))
		failed := false
		for _, a := range f.AssertionResults {
			tc := facts.TestCase{Name: a.FullName, File: file, Outcome: "passed"}
			if a.Location != nil {
				tc.Line = a.Location.Line
			}
			if a.Duration != nil && *a.Duration > 0 && *a.Duration < 1e12 {
				tc.DurationMS = int64(*a.Duration)
			}
			switch a.Status {
			case "failed":
				tc.Outcome, failed = "failed", true
				msg := ansiEscape().ReplaceAllString(strings.Join(a.FailureMessages, "\n"), "")
				tc.Message = clip(firstLine(msg), maxMessage)
				tc.FailFile, tc.FailLine = jsFailLocation(msg, root)
			case "pending", "skipped", "todo", "disabled":
				tc.Outcome = "skipped"
			}
			out.Cases = append(out.Cases, tc)
		}
		if f.Status == "failed" && !failed {
			msg := ansiEscape().ReplaceAllString(f.Message, "")
			tc := facts.TestCase{Name: file, File: file, Outcome: "error", Message: clip(firstLine(msg), maxMessage)}
			if tc.Message == "" {
				tc.Message = "the test file failed without a failing test"
			}
			tc.FailFile, tc.FailLine = jsFailLocation(msg, root)
			out.Cases = append(out.Cases, tc)
		}
	}
	countCases(out)
	return out, nil
}

// ParseNodeTest reads the JUnit report of `node --test
// --test-reporter=junit`, which names no file: a failure is located by the
// JavaScript stack in its body, and that is its case's file too.
func ParseNodeTest(data []byte, root string) (*facts.TestReport, error) {
	rep, err := parseJUnitWith(data, root, jsFailLocation)
	if err != nil {
		return nil, err
	}
	for i := range rep.Cases {
		if c := &rep.Cases[i]; c.File == "" {
			c.File = c.FailFile
		}
	}
	return rep, nil
}

// jsFailLocation returns the first stack frame that names a file inside
// root and outside node_modules: where the failing assertion is.
func jsFailLocation(msg, root string) (string, int64) {
	for _, m := range jsFrame().FindAllStringSubmatch(msg, -1) {
		p := relPath(root, strings.TrimPrefix(m[1], "file://"))
		if p == "" || strings.HasPrefix(p, "/") || p == ".." || strings.HasPrefix(p, "../") ||
			strings.HasPrefix(p, "node:") || strings.Contains(p, "node_modules/") {
			continue
		}
		if n := atoi(m[2]); n > 0 {
			return p, n
		}
	}
	return "", 0
}

// countCases sets a report's totals from its cases.
func countCases(rep *facts.TestReport) {
	for _, c := range rep.Cases {
		rep.Tests++
		switch c.Outcome {
		case "passed":
			rep.Passed++
		case "failed":
			rep.Failures++
		case "error":
			rep.Errors++
		case "skipped":
			rep.Skipped++
		}
	}
}
