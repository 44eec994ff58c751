package command

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/tausik/tausik/facts"
)

// ruffLocation is a 1-based row and column in ruff's JSON.
type ruffLocation struct {
	Row    int64 `json:"row"`
	Column int64 `json:"column"`
}

// ruffMessage is one item of `ruff check --output-format json`. Only the
// fields tausik reads are declared; ruff's others are ignored.
type ruffMessage struct {
	Code        *string         `json:"code"`
	Message     string          `json:"message"`
	Filename    string          `json:"filename"`
	Location    *ruffLocation   `json:"location"`
	EndLocation *ruffLocation   `json:"end_location"`
	Fix         json.RawMessage `json:"fix"`
	URL         *string         `json:"url"`
}

// ParseRuff reads ruff's JSON output into diagnostics with project-relative
// files. Anything but a JSON array of messages is an error: a policy must not
// read "no diagnostics" into output it could not understand.
func ParseRuff(stdout []byte, root string) ([]facts.Diagnostic, error) {
	trimmed := bytes.TrimSpace(stdout)
	if len(trimmed) == 0 || trimmed[0] != '[' {
		return nil, errors.New("ruff output is not a JSON array")
	}
	var items []ruffMessage
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(&items); err != nil {
		return nil, fmt.Errorf("read ruff JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("read ruff JSON: data after the array")
	}
	diags := make([]facts.Diagnostic, 0, len(items))
	for i, m := range items {
		if m.Filename == "" {
			return nil, fmt.Errorf("read ruff JSON: message %d has no filename", i+1)
		}
		d := facts.Diagnostic{File: relPath(root, m.Filename), Message: m.Message}
		if m.Code != nil {
			d.Code = *m.Code
		}
		if m.Location != nil {
			d.Line, d.Column = m.Location.Row, m.Location.Column
		}
		if m.EndLocation != nil {
			d.EndLine, d.EndColumn = m.EndLocation.Row, m.EndLocation.Column
		}
		d.Fixable = len(m.Fix) > 0 && string(m.Fix) != "null"
		if m.URL != nil {
			d.URL = *m.URL
		}
		diags = append(diags, d)
	}
	return diags, nil
}

var (
	mypyLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(.+?):(\d+)(?::(\d+))?(?::\d+:\d+)?: (error|warning|note): (.*?)(?:  \[([a-z0-9-]+)\])?$`)
	})
	plainLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:vet: )?([^\s:][^:]*?):(\d+)(?::(\d+))?: (.+)$`) })
)

// ParseMypy reads mypy's "file:line[:col]: severity: message  [code]" lines;
// other lines (the summary, blank lines) are skipped.
func ParseMypy(out []byte, root string) []facts.Diagnostic {
	diags := []facts.Diagnostic{}
	for _, line := range lines(out) {
		m := mypyLine().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		diags = append(diags, facts.Diagnostic{
			File: relPath(root, m[1]), Line: atoi(m[2]), Column: atoi(m[3]),
			Severity: m[4], Message: m[5], Code: m[6],
		})
	}
	return diags
}

// ParseLines reads "file:line[:col]: message" lines, the shape go vet and most
// compilers print; other lines are skipped.
func ParseLines(out []byte, root string) []facts.Diagnostic {
	diags := []facts.Diagnostic{}
	for _, line := range lines(out) {
		m := plainLine().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		diags = append(diags, facts.Diagnostic{
			File: relPath(root, m[1]), Line: atoi(m[2]), Column: atoi(m[3]), Message: m[4],
		})
	}
	return diags
}

func lines(out []byte) []string {
	var ls []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimRight(l, "\r"); l != "" {
			ls = append(ls, l)
		}
	}
	return ls
}

// atoi reads a non-negative decimal; anything else (or overflow) is 0.
func atoi(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// relPath makes a tool's path project-relative and "/"-separated. A path
// outside the root is kept as the tool printed it.
func relPath(root, p string) string {
	if filepath.IsAbs(p) {
		r, err := filepath.Rel(root, p)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(p)
		}
		return filepath.ToSlash(r)
	}
	return path.Clean(filepath.ToSlash(p))
}

// banditReport is `bandit -f json` output; only the fields tausik reads.
type banditReport struct {
	Errors []struct {
		Filename string `json:"filename"`
		Reason   string `json:"reason"`
	} `json:"errors"`
	Results *[]struct {
		Filename   string `json:"filename"`
		LineNumber int64  `json:"line_number"`
		TestID     string `json:"test_id"`
		TestName   string `json:"test_name"`
		Severity   string `json:"issue_severity"`
		Confidence string `json:"issue_confidence"`
		Text       string `json:"issue_text"`
		MoreInfo   string `json:"more_info"`
	} `json:"results"`
}

// ParseBandit reads bandit's JSON report. Each issue becomes a diagnostic
// whose code is the test id ("B602") and whose severity is bandit's, lower
// case ("high"); a file bandit could not scan (it exits 0 for that) becomes a
// diagnostic with severity "error", no code and bandit's reason. Output that
// is not a report with a results list is an error.
func ParseBandit(stdout []byte, root string) ([]facts.Diagnostic, error) {
	var rep banditReport
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimSpace(stdout)))
	if err := dec.Decode(&rep); err != nil {
		return nil, fmt.Errorf("read bandit JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("read bandit JSON: data after the report")
	}
	if rep.Results == nil {
		return nil, errors.New("read bandit JSON: no results list")
	}
	diags := make([]facts.Diagnostic, 0, len(*rep.Results)+len(rep.Errors))
	for _, e := range rep.Errors {
		diags = append(diags, facts.Diagnostic{File: relPath(root, e.Filename), Severity: "error",
			Message: "bandit could not scan the file: " + e.Reason})
	}
	for i, r := range *rep.Results {
		if r.Filename == "" {
			return nil, fmt.Errorf("read bandit JSON: result %d has no filename", i+1)
		}
		msg := r.Text
		if r.Confidence != "" {
			msg += " (confidence " + strings.ToLower(r.Confidence) + ")"
		}
		diags = append(diags, facts.Diagnostic{File: relPath(root, r.Filename), Line: r.LineNumber,
			Code: r.TestID, Severity: strings.ToLower(r.Severity), Message: msg, URL: r.MoreInfo})
	}
	return diags, nil
}
