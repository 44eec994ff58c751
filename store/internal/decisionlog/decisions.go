package decisionlog

import (
	"github.com/tausik/tausik/store/internal/sqldb"

	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tausik/tausik/store/merkle"
)

// Outcome is a gate's verdict as the decision log indexes it.
type Outcome string

// The four outcomes (the README's "Outcomes and exit codes").
const (
	OutcomePassed        Outcome = "PASSED"
	OutcomeFailed        Outcome = "FAILED"
	OutcomeNotApplicable Outcome = "NOT_APPLICABLE"
	OutcomeCouldNotRun   Outcome = "COULD_NOT_RUN"
)

// Valid reports whether o is one of the four outcomes.
func (o Outcome) Valid() bool {
	switch o {
	case OutcomePassed, OutcomeFailed, OutcomeNotApplicable, OutcomeCouldNotRun:
		return true
	}
	return false
}

// Severity is a gate's configured severity.
type Severity string

// The two severities: only a block gate can block.
const (
	SeverityBlock Severity = "block"
	SeverityWarn  Severity = "warn"
)

// Valid reports whether s is block or warn.
func (s Severity) Valid() bool { return s == SeverityBlock || s == SeverityWarn }

// GateVerdict is one gate's row in the decision log's filter index. It must
// agree with the matching entry of the body's "gates" list.
type GateVerdict struct {
	Name     string
	Outcome  Outcome
	Severity Severity
	Blocks   bool // severity block and outcome FAILED or COULD_NOT_RUN, as the engine decided
}

// Decision is one evaluation as the engine hands it to the log. The scalar
// fields are columns for filtering; Body is the engine's full decision
// document, stored verbatim in canonical form.
//
// Body is opaque except for consistency: when it carries decision_id, time,
// requester, git_head, blocked, exit_code, request.trigger, request.task or
// gates, they must agree with the fields here, so the index an auditor
// filters on can never contradict the document they read. If Gates is nil
// and the body has a gates list, the index is derived from the body.
type Decision struct {
	ID        string          // canonical ULID (see NewID)
	Time      time.Time       // zero means "now" by the store's clock
	Trigger   string          // task-start, pre-write, post-write, commit, verify, task-done, review
	Task      string          // the task slug, "" when the request named none
	Requester string          // "cli", "hook:claude", "mcp:<client>"
	GitHead   string          // commit the facts were gathered at, "" outside git
	ExitCode  int             // the exit code the engine returned for this evaluation
	Blocked   bool            // some gate blocked
	Gates     []GateVerdict   // the filter index, in the body's order; nil derives it from the body
	Body      json.RawMessage // a JSON object
}

// Appended reports where a decision landed in the chain.
type Appended struct {
	Seq      int64  // 1-based position in the log
	PrevHash string // the previous row's hash, GenesisHash for seq 1
	Hash     string // this row's hash, hex sha256
}

// Entry is one stored row of the decision log: the decision as recorded plus
// its chain position.
type Entry struct {
	Decision
	Seq      int64  // 1-based position in the log
	PrevHash string // the previous row's hash, GenesisHash for seq 1
	Hash     string // this row's hash, hex sha256
}

// record is a decision row exactly as stored, the input of the chain hash.
type Record struct {
	seq       int64
	id        string
	time      string
	trigger   string
	task      string
	requester string
	gitHead   string
	exitCode  int64
	blocked   bool
	body      []byte
	gates     []GateVerdict
	prevHash  string
	hash      string
}

// AppendDecision adds d to the end of the log in one BEGIN IMMEDIATE
// transaction: it reads the chain head, links the new row to it, hashes the
// row, inserts it with its gate list, adds its body as the next leaf of the
// Merkle tree and moves the head. Concurrent writers
// in any number of processes queue on the write lock and each gets its own
// seq; none is lost. Errors: sqldb.ErrInvalidDecision, sqldb.ErrDecisionExists,
// sqldb.ErrChainBroken (head missing), sqldb.ErrReadOnly, sqldb.ErrCorrupt, or an I/O error.
func (s *Log) AppendDecision(ctx context.Context, d Decision) (Appended, error) {
	rec, err := PrepareDecision(d, s.db.Clock)
	if err != nil {
		return Appended{}, fmt.Errorf("append decision: %w", err)
	}
	var a Appended
	err = s.db.Write(ctx, func(q sqldb.Querier) error {
		var err error
		a, err = AppendRecord(ctx, q, rec)
		return err
	})
	if err != nil {
		return Appended{}, fmt.Errorf("append decision %s: %w", rec.id, err)
	}
	return a, nil
}

// AppendRecord appends rec (PrepareDecision's) in the write transaction q.
func AppendRecord(ctx context.Context, q sqldb.Querier, rec *Record) (Appended, error) {
	var count int64
	var head string
	err := q.QueryRowContext(ctx, sqldb.Hot("SELECT count, hash FROM chain_head WHERE id = 1")).Scan(&count, &head)
	if errors.Is(err, sql.ErrNoRows) {
		return Appended{}, fmt.Errorf("%w: chain head row is missing", sqldb.ErrChainBroken)
	}
	if err != nil {
		return Appended{}, fmt.Errorf("read chain head: %w", err)
	}
	var dup int
	err = q.QueryRowContext(ctx, sqldb.Hot("SELECT 1 FROM decisions WHERE id = ?"), rec.id).Scan(&dup)
	if err == nil {
		return Appended{}, sqldb.ErrDecisionExists
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return Appended{}, fmt.Errorf("check id: %w", err)
	}
	rec.seq, rec.prevHash = count+1, head
	if rec.hash, err = chainHash(rec); err != nil {
		return Appended{}, err
	}
	gates, err := encodeGates(rec.gates)
	if err != nil {
		return Appended{}, err
	}
	_, err = q.ExecContext(ctx, sqldb.Hot(`INSERT INTO decisions
		(seq, id, time, trigger, task, requester, git_head, exit_code, blocked, gates, body, prev_hash, hash)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		rec.seq, rec.id, rec.time, rec.trigger, rec.task, rec.requester, rec.gitHead,
		rec.exitCode, sqldb.BoolInt(rec.blocked), gates, string(rec.body), rec.prevHash, rec.hash)
	if err != nil {
		return Appended{}, fmt.Errorf("insert row: %w", err)
	}
	if _, err := merkle.Append(ctx, sqlHashes{q}, rec.seq-1, rec.body); err != nil {
		return Appended{}, err
	}
	if _, err := q.ExecContext(ctx, sqldb.Hot("UPDATE chain_head SET count = ?, hash = ? WHERE id = 1"), rec.seq, rec.hash); err != nil {
		return Appended{}, fmt.Errorf("move chain head: %w", err)
	}
	return Appended{Seq: rec.seq, PrevHash: rec.prevHash, Hash: rec.hash}, nil
}

// PrepareDecision validates d and turns it into a record (without seq and
// hashes), canonicalising the body and deriving or checking the gate index.
func PrepareDecision(d Decision, clock func() time.Time) (*Record, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", sqldb.ErrInvalidDecision, fmt.Sprintf(format, args...))
	}
	if !sqldb.ValidID(d.ID) {
		return nil, bad("id %q is not a canonical ULID", d.ID)
	}
	if d.Trigger == "" {
		return nil, bad("empty trigger")
	}
	if d.Requester == "" {
		return nil, bad("empty requester")
	}
	t := d.Time
	if t.IsZero() {
		t = clock()
	}
	body, err := canonicalBody(d.Body)
	if err != nil {
		return nil, bad("body: %v", err)
	}
	mirror, err := mirrorOf(body)
	if err != nil {
		return nil, bad("body: %v", err)
	}
	gates := d.Gates
	if gates == nil {
		if gates, err = mirror.gateVerdicts(); err != nil {
			return nil, bad("%v", err)
		}
	}
	for i, g := range gates {
		if g.Name == "" {
			return nil, bad("gate %d: empty name", i)
		}
		if !g.Outcome.Valid() {
			return nil, bad("gate %s: unknown outcome %q", g.Name, g.Outcome)
		}
		if !g.Severity.Valid() {
			return nil, bad("gate %s: unknown severity %q", g.Name, g.Severity)
		}
	}
	rec := &Record{
		id: d.ID, time: sqldb.FormatTime(t), trigger: d.Trigger, task: d.Task, requester: d.Requester,
		gitHead: d.GitHead, exitCode: int64(d.ExitCode), blocked: d.Blocked, body: body,
		gates: append([]GateVerdict{}, gates...),
	}
	if m := checkBody(rec, mirror); m != nil {
		return nil, bad("%s disagrees with the body: %s", m.column, m.detail)
	}
	return rec, nil
}
