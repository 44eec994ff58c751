package engine

import (
	"io/fs"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
)

// The sentinel errors of package diag, under the names the CLI and the MCP
// server map to exit codes: ErrUsage → 2, ErrBundle, ErrConfig and ErrStore → 3.
var (
	ErrBundle         = diag.ErrBundle
	ErrConfig         = diag.ErrConfig
	ErrShape          = diag.ErrShape
	ErrUsage          = diag.ErrUsage
	ErrStore          = diag.ErrStore
	ErrExists         = diag.ErrExists
	ErrNoKey          = diag.ErrNoKey
	ErrInvalidReceipt = diag.ErrInvalidReceipt
)

// Diagnostic is one problem found in a file (see diag.Diagnostic).
type Diagnostic = diag.Diagnostic

// Diagnostics is a list of problems of one kind (see diag.Diagnostics).
type Diagnostics = diag.Diagnostics

// Violation is one finding of a gate's policy (see policy.Violation).
type Violation = policy.Violation

// ValidReasonCode reports whether code is a well-formed reason code (see
// policy.ValidReasonCode).
func ValidReasonCode(code string) bool { return policy.ValidReasonCode(code) }

// Reason says why a gate did not judge (see policy.Reason).
type Reason = policy.Reason

// EnvShardMin sets the least work for which a Rego policy is split over
// cores (see policy.EnvShardMin).
const EnvShardMin = policy.EnvShardMin

// Gate is one loaded gate bundle (see gate.Gate).
type Gate = gate.Gate

// TeamDir is where a project keeps its own gate bundles (see gate.TeamDir).
const TeamDir = gate.TeamDir

// Bundle file and directory names, and where a gate comes from (see package gate).
const (
	DirFixtures   = gate.DirFixtures
	FileExcused   = gate.FileExcused
	FileMutants   = gate.FileMutants
	SourceBuiltin = gate.SourceBuiltin
	SeverityBlock = gate.SeverityBlock
	SeverityAsk   = gate.SeverityAsk
	SeverityWarn  = gate.SeverityWarn
	LangRego      = gate.LangRego
	LangCEL       = gate.LangCEL
	TableCovered  = gate.TableCovered
	TableExcused  = gate.TableExcused
	// EnvMutantBundle names a directory of mutated policies a test binary
	// loads instead of the gates' own (see gate.EnvMutantBundle).
	EnvMutantBundle = gate.EnvMutantBundle
)

// Triggers are the moments a gate can listen to, in workflow order.
var Triggers = gate.Triggers

// CoerceParam checks v against a gate param's type (see gate.CoerceParam).
func CoerceParam(typ string, v any) (any, error) { return gate.CoerceParam(typ, v) }

// KindFiles is the example gate `policy new` scaffolds when no kind is
// named (see gate.ScaffoldKinds).
const KindFiles = gate.KindFiles

// Scaffold writes a new team gate bundle (see gate.Scaffold).
func Scaffold(root, name, lang string, builtin fs.FS) ([]string, error) {
	return gate.Scaffold(root, name, lang, builtin)
}

// ScaffoldFrom writes a new team gate bundle from an example (see
// gate.ScaffoldFrom).
func ScaffoldFrom(root, name, kind, lang string, builtin fs.FS) ([]string, error) {
	return gate.ScaffoldFrom(root, name, kind, lang, builtin)
}
