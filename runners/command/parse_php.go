package command

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/tausik/tausik/facts"
)

// decodeOne reads exactly one JSON value from out into v: data after it,
// or no value at all, is an error.
func decodeOne(tool string, out []byte, v any) error {
	trimmed := bytes.TrimSpace(out)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return fmt.Errorf("%s output is not a JSON object", tool)
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("read %s JSON: %w", tool, err)
	}
	if dec.More() {
		return fmt.Errorf("read %s JSON: data after the report", tool)
	}
	return nil
}

// phpcsReport is `phpcs --report=json`: files keyed by path, each with
// its messages.
type phpcsReport struct {
	Files map[string]struct {
		Messages []struct {
			Message  string `json:"message"`
			Source   string `json:"source"`
			Type     string `json:"type"` // ERROR or WARNING
			Line     int64  `json:"line"`
			Column   int64  `json:"column"`
			Fixable  bool   `json:"fixable"`
			Severity int64  `json:"severity"`
		} `json:"messages"`
	} `json:"files"`
}

// ParsePHPCS reads PHP_CodeSniffer's JSON report: each message becomes a
// diagnostic whose code is the sniff ("PSR12.Files.FileHeader…") and whose
// severity is "error" or "warning". Output that is not a report with a
// files object is an error.
func ParsePHPCS(stdout []byte, root string) ([]facts.Diagnostic, error) {
	var rep phpcsReport
	if err := decodeOne("phpcs", stdout, &rep); err != nil {
		return nil, err
	}
	if rep.Files == nil {
		return nil, errors.New("read phpcs JSON: no files object")
	}
	diags := []facts.Diagnostic{}
	for _, f := range sortedKeysOf(rep.Files) {
		for _, m := range rep.Files[f].Messages {
			diags = append(diags, facts.Diagnostic{File: relPath(root, f), Line: m.Line, Column: m.Column,
				Code: m.Source, Severity: strings.ToLower(m.Type), Message: m.Message, Fixable: m.Fixable})
		}
	}
	return diags, nil
}

// phpstanReport is `phpstan analyse --error-format=json`, as its JSON
// formatter writes it (https://phpstan.org/user-guide/output-format;
// src/Command/ErrorFormatter/JsonErrorFormatter.php): errors found in a
// file under files, keyed by path; errors that belong to no file (a bad
// configuration) as strings under errors. Newer releases add an
// identifier and a tip to each message.
type phpstanReport struct {
	Totals *struct {
		Errors     int64 `json:"errors"`
		FileErrors int64 `json:"file_errors"`
	} `json:"totals"`
	Files map[string]struct {
		Messages []struct {
			Message    string `json:"message"`
			Line       int64  `json:"line"`
			Identifier string `json:"identifier"`
			Tip        string `json:"tip"`
		} `json:"messages"`
	} `json:"files"`
	Errors []string `json:"errors"`
}

// ParsePHPStan reads PHPStan's JSON report: each file error becomes an
// error diagnostic coded with its identifier, when PHPStan gives one; each
// error that belongs to no file becomes a diagnostic without a file. Output
// without the report's totals is an error.
func ParsePHPStan(stdout []byte, root string) ([]facts.Diagnostic, error) {
	var rep phpstanReport
	if err := decodeOne("phpstan", stdout, &rep); err != nil {
		return nil, err
	}
	if rep.Totals == nil {
		return nil, errors.New("read phpstan JSON: no totals")
	}
	diags := []facts.Diagnostic{}
	for _, e := range rep.Errors {
		diags = append(diags, facts.Diagnostic{Severity: "error", Message: e})
	}
	for _, f := range sortedKeysOf(rep.Files) {
		for _, m := range rep.Files[f].Messages {
			diags = append(diags, facts.Diagnostic{File: relPath(root, f), Line: m.Line,
				Code: m.Identifier, Severity: "error", Message: m.Message})
		}
	}
	return diags, nil
}

func sortedKeysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// phpunitWhere matches the "path:line" lines of a PHPUnit failure's trace.
var phpunitWhere = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^(\S[^\n]*?):(\d+)$`) })

// ParsePHPUnit reads the JUnit report `phpunit --log-junit` writes. Unlike
// pytest's, its lines are 1-based; a failure's text is the test's name,
// the message, and the trace, innermost frame first, whose first line
// inside the project locates the failure.
func ParsePHPUnit(data []byte, root string) (*facts.TestReport, error) {
	return decodeJUnit(data, func(c *junitCase) facts.TestCase { return phpunitCase(c, root) })
}

func phpunitCase(c *junitCase, root string) facts.TestCase {
	tc := facts.TestCase{Classname: c.Classname, Name: c.Name, Outcome: "passed"}
	if c.File != "" {
		tc.File = relPath(root, c.File)
	}
	if line, err := strconv.ParseInt(c.Line, 10, 64); err == nil && line > 0 {
		tc.Line = line
	}
	if secs, err := strconv.ParseFloat(c.Time, 64); err == nil && secs > 0 && secs < 1e9 {
		tc.DurationMS = int64(math.Round(secs * 1000))
	}
	var res *junitResult
	switch {
	case len(c.Errors) > 0:
		tc.Outcome, res = "error", &c.Errors[0]
	case len(c.Failures) > 0:
		tc.Outcome, res = "failed", &c.Failures[0]
	case len(c.Skipped) > 0:
		tc.Outcome, res = "skipped", &c.Skipped[0]
	}
	if res == nil {
		return tc
	}
	body := strings.TrimSpace(res.Body)
	// The first line repeats the test's name; the message follows it.
	if first, rest, ok := strings.Cut(body, "\n"); ok && strings.HasSuffix(first, "::"+c.Name) {
		body = strings.TrimSpace(rest)
	}
	tc.Message = clip(firstLine(body), maxMessage)
	if tc.Message == "" {
		tc.Message = res.Message
	}
	if tc.Outcome == "skipped" {
		return tc
	}
	for _, m := range phpunitWhere().FindAllStringSubmatch(body, -1) {
		p := relPath(root, m[1])
		if strings.HasPrefix(p, "/") || p == ".." || strings.HasPrefix(p, "../") {
			continue
		}
		if n := atoi(m[2]); n > 0 {
			tc.FailFile, tc.FailLine = p, n
			break
		}
	}
	return tc
}
