package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/tausik/tausik/internal/hosts/hostinit"
)

// InitCheck writes each file that differs from what init would write now,
// and reports whether none does.
func InitCheck(w io.Writer, p *hostinit.Plan) bool {
	var b strings.Builder
	for _, f := range p.Files {
		switch {
		case !f.Exists:
			fmt.Fprintf(&b, "differs: %s (missing)\n", f.Rel)
		case f.Changed():
			fmt.Fprintf(&b, "differs: %s\n", f.Rel)
		}
	}
	changed := p.Changed()
	if len(changed) > 0 {
		fmt.Fprintf(&b, "%d of %d files differ from what `tausik init` writes; run it to update them\n", len(changed), len(p.Files))
	} else {
		fmt.Fprintf(&b, "all %d files agree with `tausik init` (%s)\n", len(p.Files), strings.Join(p.Hosts, ", "))
	}
	_, _ = io.WriteString(w, b.String())
	return len(changed) == 0
}

// InitWritten writes the files init changed and the count of the rest.
func InitWritten(w io.Writer, p *hostinit.Plan, changed []string) error {
	var b strings.Builder
	for _, rel := range changed {
		fmt.Fprintf(&b, "wrote %s\n", rel)
	}
	fmt.Fprintf(&b, "%s: %d files written, %d unchanged\n", strings.Join(p.Hosts, ", "), len(changed), len(p.Files)-len(changed))
	_, err := io.WriteString(w, b.String())
	return err
}
