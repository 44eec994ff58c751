package engine

import "github.com/tausik/tausik/engine/diag"

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
