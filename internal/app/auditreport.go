package app

import (
	"context"
	"fmt"
	"time"

	"github.com/tausik/tausik/internal/app/report"
	"github.com/tausik/tausik/store"
	"github.com/tausik/tausik/store/merkle"
)

// ReportRequest is what an audit report covers and checks.
type ReportRequest struct {
	// Since and Until bound the decisions reported (zero: unbounded).
	Since, Until time.Time
	// Checkpoints and Trusted are checked as `log verify` checks them;
	// VerifyArgs are the flags that name them, for the Queries section.
	Checkpoints []CheckpointFile
	Trusted     []merkle.Trusted
	VerifyArgs  []string
	// Generated, when not zero, is printed as the report's time: the page
	// is then no longer the same bytes for the same log.
	Generated time.Time
}

// BuildReport verifies the log against req's checkpoints, reads the
// decisions of req's range from st, and returns the audit report.
func BuildReport(ctx context.Context, st *store.Store, req ReportRequest) (*report.Report, error) {
	v, err := VerifyLog(ctx, st, req.Checkpoints, req.Trusted)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	entries, err := ListLog(ctx, st, store.Filter{Since: req.Since, Until: req.Until})
	if err != nil && v.Log.OK {
		return nil, fmt.Errorf("report: %w", err)
	}
	return report.Build(entries, err, report.Request{Since: req.Since, Until: req.Until,
		Verify:      report.Verification{Log: v.Log, Anchors: v.Anchors, Pinned: v.Pinned, Covered: v.Covered},
		Checkpoints: len(req.Checkpoints), VerifyArgs: req.VerifyArgs, Generated: req.Generated})
}
