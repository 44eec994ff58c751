package render

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tausik/tausik/internal/app"
)

// Baseline writes what `tausik baseline` recorded, or the report as JSON.
func Baseline(w io.Writer, format string, rep *app.BaselineReport) error {
	if format == "json" {
		return JSON(w, rep)
	}
	state := "wrote"
	if rep.Unchanged {
		state = "kept"
	}
	at := rep.Commit
	if at == "" {
		at = "a tree outside git"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %d entries at %s (%d added, %d lowered, %d dropped)\n",
		state, rep.Path, rep.Entries, at, rep.Added, rep.Lowered, rep.Dropped)
	for _, r := range rep.Raised {
		fmt.Fprintf(&b, "raised: %s\n", r)
	}
	if rep.Refused > 0 {
		fmt.Fprintf(&b, "not added: %d new or grown findings (--update only lowers; `tausik baseline --force` accepts them)\n", rep.Refused)
	}
	for _, name := range rep.NotRecorded {
		fmt.Fprintf(&b, "not recorded: %s could not run, so it keeps blocking\n", name)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// PushTicket writes the push a ticket allows and until when, or the
// ticket as JSON.
func PushTicket(w io.Writer, format string, rep *app.PushTicketReport) error {
	if format == "json" {
		return JSON(w, rep)
	}
	what := "one git push of commit " + rep.Commit[:min(12, len(rep.Commit))]
	if rep.Remote != "" {
		what += " to " + rep.Remote
	}
	if rep.Branch != "" {
		what += ", branch " + rep.Branch
	}
	if rep.Force {
		what += ", forced updates allowed"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "push ticket %s allows %s until %s (%d s)\n", rep.ID, what, rep.Until.UTC().Format(time.RFC3339), rep.TTLSeconds)
	if rep.PushURL != "" {
		fmt.Fprintf(&b, "a push to %s goes to %s now; once that changes, the ticket allows nothing\n", rep.Remote, rep.PushURL)
	}
	if !rep.GateEnabled {
		fmt.Fprintln(&b, "git_push_gate is off, so pushes do not need a ticket yet: switch it on in tausik/gates.json")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Key writes the signing key's fingerprint and public key and the
// checkpoint verifier key, or them as JSON.
func Key(w io.Writer, format string, k app.KeyInfo, pub string, ck app.CheckpointKey) error {
	if format == "json" {
		return JSON(w, map[string]string{"fingerprint": k.Fingerprint, "public_key": pub, "public_file": k.PublicFile,
			"checkpoint_verifier_key": ck.VerifierKey, "checkpoint_key_source": ck.Source})
	}
	_, err := fmt.Fprintf(w, "fingerprint %s\npublic key  %s\nfile        %s\ncheckpoints %s (%s)\n",
		k.Fingerprint, pub, k.PublicFile, ck.VerifierKey, ck.Source)
	return err
}
