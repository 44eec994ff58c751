// Package decisionlog is the store's decision log: the hash-chained rows of
// every decision, their gate lists and bodies, the Merkle tree over the
// bodies, the NDJSON export, and the passes that verify them.
//
// The log is tamper-evident: each row's hash covers its columns, its gate
// verdicts, its body and the previous row's hash (see chainHash), and a
// one-row chain head written in the same transaction witnesses the length,
// so VerifyChain (and VerifyExport, for an NDJSON export with no database)
// can tell an edit from a deletion, an insertion, a reordering or a
// truncation. The log is also a Merkle tree over the bodies (tree.go,
// store/merkle): VerifyLog rebuilds it, and signed checkpoints of its head,
// kept outside the database, catch the rewrites no hash inside the file can.
//
// It knows nothing of tasks or sessions: the work state appends its entries
// through AppendIn, inside its own transactions.
package decisionlog

import (
	"context"
	"fmt"
	"time"

	"github.com/tausik/tausik/store/internal/sqldb"
)

// Log is the decision log of an open database.
type Log struct {
	db *sqldb.DB
}

// New returns the log of db.
func New(db *sqldb.DB) *Log { return &Log{db: db} }

// AppendIn appends d inside the caller's write transaction q, timed by
// clock when d has no time; it becomes part of the log only if that
// transaction commits.
func AppendIn(ctx context.Context, q sqldb.Querier, clock func() time.Time, d Decision) (Appended, error) {
	rec, err := PrepareDecision(d, clock)
	if err != nil {
		return Appended{}, fmt.Errorf("append decision: %w", err)
	}
	a, err := AppendRecord(ctx, q, rec)
	if err != nil {
		return Appended{}, fmt.Errorf("append decision %s: %w", rec.id, sqldb.Classify(err))
	}
	return a, nil
}

// Backfills are the log's Go steps of the schema's migrations.
func Backfills() map[int]sqldb.Backfill {
	return map[int]sqldb.Backfill{2: backfillTree, 3: backfillGates}
}
