package render

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/artifacts"
)

// Specs writes a table of SPECs (one that does not parse with its error),
// or them as JSON.
func Specs(w io.Writer, format string, rows []app.SpecRow) error {
	if format == "json" {
		return JSON(w, rows)
	}
	if len(rows) == 0 {
		_, err := fmt.Fprintf(w, "no SPECs in %s/ (`tausik spec new` writes one)\n", artifacts.SpecsDir)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SPEC\tTYPE\tSTATUS\tVERSION\tUPDATED\tTITLE")
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t(unreadable: %s)\n", r.Slug, r.Error)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Slug, r.Type, r.Status, r.Version, r.UpdatedAt, r.Title)
	}
	return tw.Flush()
}

// Spec writes a SPEC's fields and body, or its fields as JSON.
func Spec(w io.Writer, format string, body []byte, s artifacts.Spec) error {
	if format == "json" {
		return JSON(w, s)
	}
	var b strings.Builder
	for _, kv := range [][2]string{
		{"spec", s.Slug + " (" + s.Status + ")"}, {"type", s.Type}, {"version", s.Version}, {"title", s.Title},
		{"created", s.CreatedAt}, {"updated", s.UpdatedAt}, {"tasks", OrNone(s.LinkedTasks)}, {"file", s.File},
	} {
		fmt.Fprintf(&b, "%-8s %s\n", kv[0], kv[1])
	}
	fmt.Fprintf(&b, "\n%s", body)
	_, err := fmt.Fprint(w, b.String())
	return err
}
