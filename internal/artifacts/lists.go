// Package artifacts keeps RENAR reasoning artifacts as committed files: a SPEC
// (renar/specs/<slug>.md) states a requirement, an ADAPT (renar/adapts/<slug>.md)
// records how the team reads one and who signed that reading. Each is a
// markdown file with YAML front matter, the shape the reference framework
// exports (docs/renar.md).
//
// The package reads a file into its front matter and body, edits front
// matter fields while keeping the body byte for byte, validates values
// against the closed lists, computes an ADAPT's canonical content and signs
// it with ed25519, and writes through a temp file and a rename. The renar
// runner reads with it; the spec and adapt commands write with it. Judging
// an artifact set is the policies' business, not this package's.
package artifacts

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Directories, repo-relative, "/"-separated.
const (
	Dir       = "renar"
	SpecsDir  = "renar/specs"
	AdaptsDir = "renar/adapts"
	// KeysDir holds committed public keys (PEM or base64) that ADAPT
	// signatures are checked against, beside the project key.
	KeysDir = "renar/keys"
)

// Artifact kinds, as the front matter's "artifact" field names them.
const (
	KindSpec  = "spec"
	KindAdapt = "adapt"
)

// The closed lists of docs/renar.md.
var (
	SpecTypes     = []string{"ARCH", "API", "DATA", "INT", "PROC", "UI", "AI", "SEC", "OPS", "TEST", "DOC"}
	SpecStatuses  = []string{"draft", "active", "deprecated"}
	AdaptStatuses = []string{"draft", "review", "asked", "answered", "approved", "frozen", "superseded"}
	// Roles are the signature roles in force; WithdrawnRoles were once
	// valid and are reported, never accepted for a new signature.
	Roles          = []string{"architect"}
	WithdrawnRoles = []string{"client"}
	Categories     = []string{"contradiction", "gap", "hidden-assumption", "feasibility", "regulatory", "terminology", "scope"}
	// TargetTypes are what an ADAPT link may point at.
	TargetTypes = []string{"task", "spec"}
)

// LegacyApproved is the older ADAPT status read as "approved".
const LegacyApproved = "signed"

// slugRE is the artifact slug grammar, the task slug's: path- and
// shell-safe, so a slug is also the file name.
var slugRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// ValidSlug reports whether s is a well-formed artifact slug.
func ValidSlug(s string) bool { return slugRE.MatchString(s) && !strings.Contains(s, "..") }

// NormalizeAdaptStatus reads the legacy "signed" as "approved".
func NormalizeAdaptStatus(s string) string {
	if s == LegacyApproved {
		return "approved"
	}
	return s
}

// checkSlug refuses a malformed slug, naming what it was and the grammar.
func checkSlug(what, s string) error {
	if !ValidSlug(s) {
		return fmt.Errorf("%w: %s %q: use 1-64 of a-z 0-9 . _ -, starting with a letter or digit", ErrUsage, what, s)
	}
	return nil
}

// checkOneOf refuses v unless it is in allowed, naming both.
func checkOneOf(what, v string, allowed []string) error {
	if !slices.Contains(allowed, v) {
		return fmt.Errorf("%w: %s %q is not one of %s", ErrUsage, what, v, strings.Join(allowed, ", "))
	}
	return nil
}
