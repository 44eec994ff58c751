package command

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tausik/tausik/facts"
)

// decodeArray reads exactly one JSON array from out into v.
func decodeArray(tool string, out []byte, v any) error {
	trimmed := bytes.TrimSpace(out)
	if len(trimmed) == 0 || trimmed[0] != '[' {
		return fmt.Errorf("%s output is not a JSON array", tool)
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("read %s JSON: %w", tool, err)
	}
	if dec.More() {
		return fmt.Errorf("read %s JSON: data after the array", tool)
	}
	return nil
}

// ansibleIssue is one item of `ansible-lint -f json`, the Code Climate
// format: location.path with lines.begin, or positions.begin.line.
type ansibleIssue struct {
	CheckName   string `json:"check_name"`
	Description string `json:"description"`
	Level       string `json:"level"`
	URL         string `json:"url"`
	Location    struct {
		Path  string `json:"path"`
		Lines *struct {
			Begin json.RawMessage `json:"begin"`
		} `json:"lines"`
		Positions *struct {
			Begin struct {
				Line   int64 `json:"line"`
				Column int64 `json:"column"`
			} `json:"begin"`
		} `json:"positions"`
	} `json:"location"`
}

// ParseAnsibleLint reads ansible-lint's JSON (Code Climate) report: each
// issue becomes a diagnostic coded with its rule ("name[play]"), with
// ansible-lint's level ("error", "warning") as its severity. Output that is
// not a JSON array is an error.
func ParseAnsibleLint(stdout []byte, root string) ([]facts.Diagnostic, error) {
	var items []ansibleIssue
	if err := decodeArray("ansible-lint", stdout, &items); err != nil {
		return nil, err
	}
	diags := make([]facts.Diagnostic, 0, len(items))
	for i, it := range items {
		if it.Location.Path == "" {
			return nil, fmt.Errorf("read ansible-lint JSON: issue %d has no path", i+1)
		}
		d := facts.Diagnostic{File: relPath(root, it.Location.Path), Code: it.CheckName, Severity: it.Level,
			Message: it.Description, URL: it.URL}
		switch {
		case it.Location.Positions != nil:
			d.Line, d.Column = it.Location.Positions.Begin.Line, it.Location.Positions.Begin.Column
		case it.Location.Lines != nil:
			// begin is a line number, or {"line": n, "column": m}.
			var n int64
			var lc struct {
				Line   int64 `json:"line"`
				Column int64 `json:"column"`
			}
			if json.Unmarshal(it.Location.Lines.Begin, &n) == nil {
				d.Line = n
			} else if json.Unmarshal(it.Location.Lines.Begin, &lc) == nil {
				d.Line, d.Column = lc.Line, lc.Column
			}
		}
		diags = append(diags, d)
	}
	return diags, nil
}

// terraformValidate is `terraform validate -json` (also OpenTofu's
// `tofu validate -json`).
type terraformValidate struct {
	Valid       *bool `json:"valid"`
	Diagnostics []struct {
		Severity string `json:"severity"`
		Summary  string `json:"summary"`
		Detail   string `json:"detail"`
		Range    *struct {
			Filename string `json:"filename"`
			Start    struct {
				Line   int64 `json:"line"`
				Column int64 `json:"column"`
			} `json:"start"`
			End struct {
				Line   int64 `json:"line"`
				Column int64 `json:"column"`
			} `json:"end"`
		} `json:"range"`
	} `json:"diagnostics"`
}

// ParseTerraformValidate reads `terraform validate -json`: each diagnostic
// with its severity, the summary and detail as its message, located by its
// range when it has one. Output without the valid field is an error.
func ParseTerraformValidate(stdout []byte, root string) ([]facts.Diagnostic, error) {
	var rep terraformValidate
	if err := decodeOne("terraform", stdout, &rep); err != nil {
		return nil, err
	}
	if rep.Valid == nil {
		return nil, errors.New("read terraform JSON: no valid field")
	}
	diags := make([]facts.Diagnostic, 0, len(rep.Diagnostics))
	for _, td := range rep.Diagnostics {
		d := facts.Diagnostic{Severity: td.Severity, Message: td.Summary}
		if td.Detail != "" {
			d.Message += ": " + td.Detail
		}
		if r := td.Range; r != nil {
			d.File, d.Line, d.Column, d.EndLine, d.EndColumn = relPath(root, r.Filename), r.Start.Line, r.Start.Column, r.End.Line, r.End.Column
		}
		diags = append(diags, d)
	}
	return diags, nil
}

// ParseHadolint reads `hadolint --format json`, as hadolint's JSON
// formatter writes it (src/Hadolint/Formatter/Json.hs: an array of
// {file, line, column, level, code, message}; a Dockerfile that does not
// parse is code DL1000 at level error). Output that is not a JSON array is
// an error.
func ParseHadolint(stdout []byte, root string) ([]facts.Diagnostic, error) {
	var items []struct {
		File    string `json:"file"`
		Line    int64  `json:"line"`
		Column  int64  `json:"column"`
		Level   string `json:"level"`
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	if err := decodeArray("hadolint", stdout, &items); err != nil {
		return nil, err
	}
	diags := make([]facts.Diagnostic, 0, len(items))
	for _, it := range items {
		diags = append(diags, facts.Diagnostic{File: relPath(root, it.File), Line: it.Line, Column: it.Column,
			Severity: it.Level, Code: it.Code, Message: it.Message})
	}
	return diags, nil
}

// ParseKtlint reads `ktlint --reporter=json`, as ktlint's JSON reporter
// writes it (ktlint-cli-reporter-json: an array of {file, errors: [{line,
// column, message, rule}]}, the errors ktlint could not correct). Every
// error is severity "error". Output that is not a JSON array is an error.
func ParseKtlint(stdout []byte, root string) ([]facts.Diagnostic, error) {
	var files []struct {
		File   string `json:"file"`
		Errors []struct {
			Line    int64  `json:"line"`
			Column  int64  `json:"column"`
			Message string `json:"message"`
			Rule    string `json:"rule"`
		} `json:"errors"`
	}
	if err := decodeArray("ktlint", stdout, &files); err != nil {
		return nil, err
	}
	diags := []facts.Diagnostic{}
	for _, f := range files {
		for _, e := range f.Errors {
			diags = append(diags, facts.Diagnostic{File: relPath(root, f.File), Line: e.Line, Column: e.Column,
				Severity: "error", Code: e.Rule, Message: e.Message})
		}
	}
	return diags, nil
}
