package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/buildinfo"
	"github.com/tausik/tausik/store/merkle"
)

// Version is what `tausik version` prints for a build: a line per fact
// known, the unknown ones left out.
func Version(b buildinfo.Info) string {
	var s strings.Builder
	fmt.Fprintf(&s, "tausik %s\n", b.Version)
	if b.Commit != "" {
		mod := ""
		if b.Modified {
			mod = " (with uncommitted changes)"
		}
		fmt.Fprintf(&s, "commit %s%s\n", b.Commit, mod)
	}
	if b.Date != "" {
		fmt.Fprintf(&s, "built from a commit of %s\n", b.Date)
	}
	fmt.Fprintf(&s, "facts schema %s\n", facts.Schema)
	return s.String()
}

// ValidProof writes a proof bundle that verified: the decision, the log
// and checkpoint it is in, and the key that signed the checkpoint.
func ValidProof(w io.Writer, v merkle.Verified) error {
	var b strings.Builder
	trust := "pinned key"
	if !v.Pinned {
		trust = "the key it embeds (not pinned: pass --pub to check it is the log's)"
	}
	fmt.Fprintf(&b, "valid: decision %s (seq %d) is in log %s of %d decisions\n", v.DecisionID, v.Index+1, v.Checkpoint.Origin, v.Checkpoint.Size)
	fmt.Fprintf(&b, "root      %s\nsigned by %s, checked against %s\n", v.Checkpoint.Root, v.Checkpoint.VerifierKeys[0], trust)
	_, err := io.WriteString(w, b.String())
	return err
}
