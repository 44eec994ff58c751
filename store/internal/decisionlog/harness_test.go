package decisionlog

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tausik/tausik/store/internal/quickverify"
	"github.com/tausik/tausik/store/internal/sqldb"
	"github.com/tausik/tausik/store/internal/storetest"
)

// The log's suite: every contract case runs against a fresh in-memory log,
// a fresh file-backed one and one on PostgreSQL, so the backends can never
// drift apart.

func TestMain(m *testing.M) {
	code := m.Run()
	storetest.DropMigrated()
	os.Exit(code)
}

// Option tunes how a test opens its log.
type Option func(*sqldb.Config)

// WithClock sets the clock of the log's timestamps.
func WithClock(now func() time.Time) Option { return func(c *sqldb.Config) { c.Clock = now } }

// WithReadOnly opens an existing database without the right to write.
func WithReadOnly() Option { return func(c *sqldb.Config) { c.ReadOnly = true } }

func testConfig(opts []Option) sqldb.Config {
	c := sqldb.Config{Clock: time.Now, BusyTimeout: 5 * time.Second, Backfills: Backfills()}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// Path is the database's path, for messages and reopening.
func (s *Log) Path() string { return s.db.Path }

// Close releases the database.
func (s *Log) Close() error { return s.db.Close() }

type opener func(t *testing.T, opts ...Option) *Log

func openMem(t *testing.T, opts ...Option) *Log {
	t.Helper()
	db, err := sqldb.OpenMemory(context.Background(), testConfig(opts))
	if err != nil {
		t.Fatalf("OpenMemory: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return New(db)
}

// Open opens the log of the database file at path.
func Open(ctx context.Context, path string, opts ...Option) (*Log, error) {
	db, err := sqldb.Open(ctx, path, testConfig(opts))
	if err != nil {
		return nil, err
	}
	return New(db), nil
}

func openFile(t *testing.T, opts ...Option) *Log {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), ".tausik", "tausik.db"), opts...)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// OpenPostgres opens the log on the server at u.
func OpenPostgres(ctx context.Context, u string, opts ...Option) (*Log, error) {
	pc, err := pgx.ParseConfig(u)
	if err != nil {
		return nil, err
	}
	db, err := sqldb.OpenPostgres(ctx, pc, u, testConfig(opts))
	if err != nil {
		return nil, err
	}
	return New(db), nil
}

func openPostgres(t *testing.T, opts ...Option) *Log {
	t.Helper()
	s, err := OpenPostgres(context.Background(), storetest.Migrated(t), opts...)
	if err != nil {
		t.Fatalf("OpenPostgres: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

type contractCase struct {
	name string
	run  func(t *testing.T, open opener)
}

var contractCases []contractCase

func contract(name string, run func(t *testing.T, open opener)) bool {
	contractCases = append(contractCases, contractCase{name, run})
	return true
}

func TestContractMemory(t *testing.T) { runContract(t, openMem) }
func TestContractFile(t *testing.T)   { runContract(t, openFile) }
func TestContractPostgres(t *testing.T) {
	storetest.PostgresURL(t)
	runContract(t, openPostgres)
}

func runContract(t *testing.T, open opener) {
	if len(contractCases) < 5 {
		t.Fatalf("contract suite has only %d cases; registration broke", len(contractCases))
	}
	for _, c := range contractCases {
		t.Run(c.name, func(t *testing.T) { c.run(t, open) })
	}
}

type fakeClock = storetest.Clock

func newClock() *fakeClock { return storetest.NewClock() }

// gateSpec is a compact way to describe a gate verdict in tests.
type gateSpec struct {
	name    string
	outcome Outcome
	sev     Severity
}

// mkDecision builds a decision whose body looks like the engine's and agrees
// with its columns.
func mkDecision(at time.Time, trigger, task string, gates ...gateSpec) Decision {
	id := sqldb.NewID(at)
	blocked := false
	var verdicts []GateVerdict
	var bodyGates []map[string]any
	for _, g := range gates {
		blocks := g.sev == SeverityBlock && (g.outcome == OutcomeFailed || g.outcome == OutcomeCouldNotRun)
		blocked = blocked || blocks
		verdicts = append(verdicts, GateVerdict{Name: g.name, Outcome: g.outcome, Severity: g.sev, Blocks: blocks})
		bodyGates = append(bodyGates, map[string]any{
			"name": g.name, "source": "builtin", "language": "cel", "severity": string(g.sev),
			"outcome": string(g.outcome), "blocks": blocks,
			"reasons":       []map[string]string{{"code": "r", "msg": "<reason & detail>"}},
			"violations":    []map[string]any{{"msg": "x.go: 600 lines (max 500)", "file": "x.go", "line": 3, "rule": "max"}},
			"policy_digest": "sha256:abc", "eval_ns": 123,
		})
	}
	if bodyGates == nil {
		bodyGates = []map[string]any{}
	}
	exit := 0
	if blocked {
		exit = 1
	}
	body := map[string]any{
		"schema": "tausik-decision/v1", "decision_id": id, "time": at.UTC().Format(time.RFC3339Nano),
		"requester": "cli",
		"request": map[string]any{"trigger": trigger, "task": task, "files": []string{}, "explicit": false,
			"gates": []string{}},
		"git_head": "0123abcd", "facts_digest": "sha256:feed", "gates": bodyGates,
		"warnings": []string{"w"}, "blocked": blocked, "exit_code": exit,
		"timings": map[string]any{"facts_ns": 1, "eval_ns": 2, "total_ns": 3},
	}
	raw, err := json.MarshalIndent(body, "", "  ") // deliberately not canonical
	if err != nil {
		panic(err)
	}
	return Decision{ID: id, Time: at, Trigger: trigger, Task: task, Requester: "cli", GitHead: "0123abcd",
		ExitCode: exit, Blocked: blocked, Gates: verdicts, Body: raw}
}

func benchDecisions(n int) []Decision {
	ds := make([]Decision, n)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range ds {
		ds[i] = mkDecision(at.Add(time.Duration(i)*time.Millisecond), "commit", "bench",
			gateSpec{"filesize", OutcomeFailed, SeverityBlock}, gateSpec{"ruff", OutcomePassed, SeverityBlock},
			gateSpec{"tdd_order", OutcomeNotApplicable, SeverityWarn})
	}
	return ds
}

func mustAppend(t *testing.T, s *Log, d Decision) Appended {
	t.Helper()
	a, err := s.AppendDecision(context.Background(), d)
	if err != nil {
		t.Fatalf("AppendDecision: %v", err)
	}
	return a
}

func mustVerify(t *testing.T, s *Log) ChainReport {
	t.Helper()
	rep, err := s.VerifyChain(context.Background())
	if err != nil {
		t.Fatalf("VerifyChain: %v", err)
	}
	if !rep.OK {
		t.Fatalf("chain broken: %v", rep.Break)
	}
	lrep, err := s.VerifyLog(context.Background())
	if err != nil {
		t.Fatalf("VerifyLog: %v", err)
	}
	if !lrep.OK || lrep.Size != rep.Rows {
		t.Fatalf("log broken or of another size (%d, chain %d): %v", lrep.Size, rep.Rows, lrep.Break)
	}
	return rep
}

// seed appends n decisions one second apart, alternating trigger, task and
// the filesize gate's outcome, and returns them.
func seed(t *testing.T, s *Log, clock *fakeClock, n int) []Decision {
	t.Helper()
	var out []Decision
	for i := range n {
		out_ := OutcomePassed
		if i%3 == 1 {
			out_ = OutcomeFailed
		}
		trigger, task := "commit", ""
		if i%2 == 1 {
			trigger, task = "task-done", "t1"
		}
		d := mkDecision(clock.Now(), trigger, task,
			gateSpec{"filesize", out_, SeverityBlock}, gateSpec{"tdd_order", OutcomeNotApplicable, SeverityWarn})
		mustAppend(t, s, d)
		out = append(out, d)
		clock.Advance(time.Second)
	}
	return out
}

func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// quickVerifyLog runs the quick pass alone (quickverify.Verify), its
// report as VerifyLog gives it.
func (s *Log) quickVerifyLog(ctx context.Context) (LogReport, bool) {
	return s.quickVerify(ctx, quickverify.QuickChunk)
}

// quickVerify is quickVerifyLog reading chunk decisions per statement.
func (s *Log) quickVerify(ctx context.Context, chunk int64) (LogReport, bool) {
	q, ok := quickverify.VerifyChunked(ctx, s.db, chunk)
	if !ok {
		return LogReport{}, false
	}
	return LogReport{OK: true, Size: q.Size, Verified: q.Size, Root: q.Root, Head: q.Head, tree: q.Tree}, true
}
