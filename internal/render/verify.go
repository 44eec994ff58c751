package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/tausik/tausik/internal/app"
)

// LogVerification writes what `log verify` found: the log on its own,
// each checkpoint, and the decisions no checkpoint protects (checkpoints
// is how many were given, gitRef the ref they were read from, if any).
func LogVerification(w io.Writer, v app.LogVerification, checkpoints int, gitRef string) error {
	var b strings.Builder
	rep := v.Log
	if rep.OK {
		fmt.Fprintf(&b, "ok %d decisions, head %s\n", rep.Size, OrDash(rep.Head))
		fmt.Fprintf(&b, "tree root %s at size %d\n", rep.Root, rep.Size)
	} else {
		fmt.Fprintf(&b, "broken: %s\n", rep.Break)
		fmt.Fprintf(&b, "%d decision(s) verified intact before the break\n", rep.Verified)
	}
	for _, a := range v.Anchors {
		line := fmt.Sprintf("checkpoint %s: %s (%s, size %d", a.Name, a.Kind, a.Origin, a.Size)
		switch {
		case a.Kind == app.AnchorBadSignature:
		case v.Pinned:
			line += ", signature checked"
		default:
			line += ", signature not checked: pass --pub"
		}
		line += ")"
		if a.Detail != "" {
			line += ": " + a.Detail
		}
		fmt.Fprintln(&b, line)
	}
	switch {
	case checkpoints == 0 && gitRef != "":
		fmt.Fprintf(&b, "unprotected: every decision (%s holds no checkpoint)\n", gitRef)
	case checkpoints == 0:
		fmt.Fprintln(&b, "unprotected: every decision (no --checkpoint: whoever can write the database can rewrite it whole)")
	case v.Covered < rep.Size:
		fmt.Fprintf(&b, "unprotected: decisions %d..%d, after the newest checkpoint the log extends\n", v.Covered+1, rep.Size)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
