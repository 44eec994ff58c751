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

// golangciReport is golangci-lint's JSON output (`--output.json.path
// stdout`); only the fields tausik reads.
type golangciReport struct {
	Issues *[]struct {
		FromLinter string `json:"FromLinter"`
		Text       string `json:"Text"`
		Severity   string `json:"Severity"`
		Pos        struct {
			Filename string `json:"Filename"`
			Line     int64  `json:"Line"`
			Column   int64  `json:"Column"`
		} `json:"Pos"`
	} `json:"Issues"`
	Report *struct {
		Error string `json:"Error"`
	} `json:"Report"`
}

// ParseGolangci reads golangci-lint's JSON: one diagnostic per issue, its
// code the linter that found it ("govet"). A report that names an error
// (the packages did not load) is an error; so is output without an Issues
// list (golangci-lint writes `"Issues": []` when there are none).
func ParseGolangci(stdout []byte, root string) ([]facts.Diagnostic, error) {
	trimmed := bytes.TrimSpace(stdout)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, errors.New("golangci-lint output is not a JSON object")
	}
	var rep golangciReport
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(&rep); err != nil {
		return nil, fmt.Errorf("read golangci-lint JSON: %w", err)
	}
	if rep.Report != nil && rep.Report.Error != "" {
		return nil, fmt.Errorf("golangci-lint: %s", firstLine(rep.Report.Error))
	}
	if rep.Issues == nil {
		return nil, errors.New("read golangci-lint JSON: no Issues list")
	}
	diags := []facts.Diagnostic{}
	for i, is := range *rep.Issues {
		if is.Pos.Filename == "" {
			return nil, fmt.Errorf("read golangci-lint JSON: issue %d has no file", i+1)
		}
		diags = append(diags, facts.Diagnostic{File: relPath(root, is.Pos.Filename), Line: is.Pos.Line, Column: is.Pos.Column,
			Code: is.FromLinter, Severity: strings.ToLower(is.Severity), Message: is.Text})
	}
	return diags, nil
}

var (
	// helmLine is one finding of `helm lint`: "[ERROR] templates/x.yaml: message".
	helmLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\[(ERROR|WARNING|INFO)\] ([^:\s][^:]*?): (.*)$`)
	})
	// helmAt is a location inside a helm message: "templates/x.yaml:5:3"
	// (a template error) or "(line 5)" / "line 5:" (a YAML error).
	helmAt = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:/(templates/[^\s:]+):(\d+)(?::\d+)?|\bline (\d+))`)
	})
)

// ParseHelmLint reads `helm lint`'s "[SEVERITY] file: message" lines (it
// has no machine format): severity "error", "warning" or "info", the file
// relative to the chart, and the line a template or YAML error names.
func ParseHelmLint(out []byte, root string) []facts.Diagnostic {
	diags := []facts.Diagnostic{}
	for _, l := range lines(out) {
		m := helmLine().FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		d := facts.Diagnostic{File: relPath(root, m[2]), Severity: strings.ToLower(m[1]), Message: m[3]}
		if at := helmAt().FindStringSubmatch(m[3]); at != nil {
			if at[1] != "" {
				d.File, d.Line = relPath(root, at[1]), atoi(at[2])
			} else {
				d.Line = atoi(at[3])
			}
		}
		diags = append(diags, d)
	}
	return diags
}
