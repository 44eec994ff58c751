package runners

import "github.com/tausik/tausik/facts"

// WorkContext carries the workflow state only the engine knows into a scope.
type WorkContext struct {
	// Proposed is the task a task-start request asks about. It does not
	// exist in the store yet: the task facts show it as status "proposed",
	// and the flow creates it only if no gate blocks.
	Proposed *facts.Task
	// VerifyGates names the enabled gates that listen to the verify trigger,
	// sorted; GateSignature is their signature (receipt.GateSignature), the
	// value a verify run must have been recorded under to still count.
	VerifyGates   []string
	GateSignature string
}
