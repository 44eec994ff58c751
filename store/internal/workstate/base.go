package workstate

import (
	"context"
	"time"

	"github.com/tausik/tausik/store/internal/decisionlog"
	"github.com/tausik/tausik/store/internal/sqldb"
)

// The names of the base (sqldb) and the log (decisionlog) the work state's
// files use, as the work state spells them.

type querier = sqldb.Querier

// The log's types a task, a session or a ticket is recorded and checked with.
type (
	// Decision is a log entry to append.
	Decision = decisionlog.Decision
	// GateVerdict is one gate's verdict inside a decision.
	GateVerdict = decisionlog.GateVerdict
	// Severity is a gate's severity.
	Severity = decisionlog.Severity
	// BreakKind names what a verification found broken.
	BreakKind = decisionlog.BreakKind
	// ChainBreak is the first break a verification found.
	ChainBreak = decisionlog.ChainBreak
)

// The base's sentinels the work state returns.
var (
	// ErrNotFound: a lookup matched nothing.
	ErrNotFound = sqldb.ErrNotFound
	// ErrInvalidTask: a malformed task or an illegal change.
	ErrInvalidTask = sqldb.ErrInvalidTask
	// ErrTaskExists: the slug is taken.
	ErrTaskExists = sqldb.ErrTaskExists
	// ErrTaskNotActive: the task is done or abandoned.
	ErrTaskNotActive = sqldb.ErrTaskNotActive
	// ErrSessionOpen: another session is open.
	ErrSessionOpen = sqldb.ErrSessionOpen
	// ErrNoOpenSession: no session is open.
	ErrNoOpenSession = sqldb.ErrNoOpenSession
	// ErrInvalidVerifyRun: a malformed verify run.
	ErrInvalidVerifyRun = sqldb.ErrInvalidVerifyRun
)

// NewID returns a new decision id for t (sqldb.NewID).
func NewID(t time.Time) string { return sqldb.NewID(t) }

var (
	formatTime      = sqldb.FormatTime
	parseTime       = sqldb.ParseTime
	isNoRows        = sqldb.IsNoRows
	classify        = sqldb.Classify
	boolInt         = sqldb.BoolInt
	prepareDecision = decisionlog.PrepareDecision
	appendRecord    = decisionlog.AppendRecord
)

func (s *Work) write(ctx context.Context, fn func(q querier) error) error { return s.db.Write(ctx, fn) }

func (s *Work) read(ctx context.Context, fn func(q querier) error) error { return s.db.Read(ctx, fn) }

func (s *Work) clock() time.Time { return s.db.Clock() }
