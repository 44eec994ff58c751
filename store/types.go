package store

import (
	"context"
	"io"
	"time"

	"github.com/tausik/tausik/store/internal/decisionlog"
	"github.com/tausik/tausik/store/internal/workstate"
)

// The decision log's types and constants (store/internal/decisionlog).
type (
	// Outcome is a gate verdict's outcome.
	Outcome = decisionlog.Outcome
	// Severity is a gate's severity.
	Severity = decisionlog.Severity
	// GateVerdict is one gate's verdict inside a decision.
	GateVerdict = decisionlog.GateVerdict
	// Decision is one decision handed to AppendDecision.
	Decision = decisionlog.Decision
	// Appended is what an append returns.
	Appended = decisionlog.Appended
	// Entry is a decision as read back from the log.
	Entry = decisionlog.Entry
	// Filter selects decisions for ListDecisions and ExportDecisions.
	Filter = decisionlog.Filter
	// BreakKind names what a verification found broken.
	BreakKind = decisionlog.BreakKind
	// ChainBreak is the first break a verification found.
	ChainBreak = decisionlog.ChainBreak
	// ChainReport is the outcome of VerifyChain and VerifyExport.
	ChainReport = decisionlog.ChainReport
	// LogReport is the outcome of VerifyLog.
	LogReport = decisionlog.LogReport
	// TreeHead is the log's Merkle tree head.
	TreeHead = decisionlog.TreeHead
	// InclusionProof proves a decision is in the tree at a size.
	InclusionProof = decisionlog.InclusionProof
)

// The decision log's constants.
const (
	GenesisHash          = decisionlog.GenesisHash
	ExportApp            = decisionlog.ExportApp
	OutcomePassed        = decisionlog.OutcomePassed
	OutcomeFailed        = decisionlog.OutcomeFailed
	OutcomeNotApplicable = decisionlog.OutcomeNotApplicable
	OutcomeCouldNotRun   = decisionlog.OutcomeCouldNotRun
	SeverityBlock        = decisionlog.SeverityBlock
	SeverityWarn         = decisionlog.SeverityWarn
	BreakContent         = decisionlog.BreakContent
	BreakMissing         = decisionlog.BreakMissing
	BreakLink            = decisionlog.BreakLink
	BreakTruncated       = decisionlog.BreakTruncated
	BreakUnwitnessed     = decisionlog.BreakUnwitnessed
	BreakHead            = decisionlog.BreakHead
	BreakTree            = decisionlog.BreakTree
)

// VerifyExport checks an NDJSON export (ExportDecisions') with no database:
// every line's hash, the links between them, the chain's order.
func VerifyExport(r io.Reader) (ChainReport, error) { return decisionlog.VerifyExport(r) }

// The work state's types (store/internal/workstate).
type (
	// Tier is a task's tier.
	Tier = workstate.Tier
	// Complexity is a task's declared complexity.
	Complexity = workstate.Complexity
	// TaskStatus is a task's status.
	TaskStatus = workstate.TaskStatus
	// Task is one task row.
	Task = workstate.Task
	// TaskState is the state of a task a task-state entry records.
	TaskState = workstate.TaskState
	// Session is one working session.
	Session = workstate.Session
	// Handoff is a session's handoff note.
	Handoff = workstate.Handoff
	// SessionState is the open session's status.
	SessionState = workstate.SessionState
	// VerifyGateResult is one verify gate's result inside a run.
	VerifyGateResult = workstate.VerifyGateResult
	// VerifyRun is one recorded verify run.
	VerifyRun = workstate.VerifyRun
	// PushTicket is a person's leave for one agent git push.
	PushTicket = workstate.PushTicket
	// Tx is a write transaction handed to WithTx.
	Tx = workstate.Tx
)

// The work state's constants.
const (
	TierLightweight   = workstate.TierLightweight
	TierStandard      = workstate.TierStandard
	TierSubstantial   = workstate.TierSubstantial
	TierDeep          = workstate.TierDeep
	ComplexitySimple  = workstate.ComplexitySimple
	ComplexityMedium  = workstate.ComplexityMedium
	ComplexityComplex = workstate.ComplexityComplex
	TaskActive        = workstate.TaskActive
	TaskDone          = workstate.TaskDone
	TaskAbandoned     = workstate.TaskAbandoned
	ActiveGapCap      = workstate.ActiveGapCap
	TriggerTaskState  = workstate.TriggerTaskState
	BreakTask         = workstate.BreakTask
	ChangeStart       = workstate.ChangeStart
	ChangeUpdate      = workstate.ChangeUpdate
	ChangeDone        = workstate.ChangeDone
	ChangeAbandon     = workstate.ChangeAbandon
	ChangeRecorded    = workstate.ChangeRecorded
	TriggerPushTicket = workstate.TriggerPushTicket
	PushIssued        = workstate.PushIssued
	PushUsed          = workstate.PushUsed
)

// ValidSlug reports whether s is a valid task slug.
func ValidSlug(s string) bool { return workstate.ValidSlug(s) }

// ActiveDuration sums the gaps between consecutive events — the start, each
// call (in time order; a call stamped before the start counts as at the
// start) and the end if non-zero — counting each gap as at most ActiveGapCap
// and a negative gap (clock skew between processes) as zero.
func ActiveDuration(start time.Time, calls []time.Time, end time.Time) time.Duration {
	return workstate.ActiveDuration(start, calls, end)
}

// WithRequester returns ctx naming requester as who asks, for the
// task-state entries a change appends.
func WithRequester(ctx context.Context, requester string) context.Context {
	return workstate.WithRequester(ctx, requester)
}
