package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
)

//go:embed report.html.tmpl
var reportHTML string

// WriteHTML writes r as one self-contained HTML page: inline CSS and
// inline SVG, no script, nothing fetched. Every string from the log goes
// through html/template's contextual escaping.
func WriteHTML(w io.Writer, r *Report) error {
	lines := map[string]string{}
	for _, q := range r.Queries {
		lines[q.ID] = q.Line
	}
	t, err := template.New("report").Funcs(template.FuncMap{
		"cmd": func(id string) string { return lines[id] },
	}).Parse(reportHTML)
	if err != nil {
		return fmt.Errorf("report template: %w", err)
	}
	data := struct {
		*Report
		TimeChart, GateChart Chart
	}{r, r.timeChart(), r.gateChart()}
	if err := t.Execute(w, data); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// Write writes r in format: "markdown", or else the HTML page.
func Write(w io.Writer, format string, r *Report) error {
	if format == "markdown" {
		return WriteMarkdown(w, r)
	}
	return WriteHTML(w, r)
}
