package engine

import (
	"github.com/tausik/tausik/engine/diag"
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
