package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/tausik/tausik/internal/canonjson"
	"github.com/tausik/tausik/store/internal/quickverify"
	"github.com/tausik/tausik/store/internal/sqldb"
	"github.com/tausik/tausik/store/internal/storetest"
)

// The contract suite: every case runs against a fresh in-memory store and a
// fresh file-backed store, so the two can never drift apart.

type opener func(t *testing.T, opts ...Option) *Store

func openMem(t *testing.T, opts ...Option) *Store {
	t.Helper()
	s, err := OpenMemory(context.Background(), opts...)
	if err != nil {
		t.Fatalf("OpenMemory: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func openFile(t *testing.T, opts ...Option) *Store {
	t.Helper()
	p := filepath.Join(t.TempDir(), ".tausik", "tausik.db")
	s, err := Open(context.Background(), p, opts...)
	if err != nil {
		t.Fatalf("Open: %v", err)
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

func runContract(t *testing.T, open opener) {
	if len(contractCases) < 5 {
		t.Fatalf("contract suite has only %d cases; registration broke", len(contractCases))
	}
	for _, c := range contractCases {
		t.Run(c.name, func(t *testing.T) { c.run(t, open) })
	}
}

// fakeClock is a settable clock for WithClock.
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
	id := NewID(at)
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

func mustAppend(t *testing.T, s *Store, d Decision) Appended {
	t.Helper()
	a, err := s.AppendDecision(context.Background(), d)
	if err != nil {
		t.Fatalf("AppendDecision: %v", err)
	}
	return a
}

func mustVerify(t *testing.T, s *Store) ChainReport {
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
func seed(t *testing.T, s *Store, clock *fakeClock, n int) []Decision {
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

var _ = contract("append_and_get", func(t *testing.T, open opener) {
	ctx := context.Background()
	clock := newClock()
	s := open(t, WithClock(clock.Now))
	d := mkDecision(clock.Now(), "commit", "", gateSpec{"filesize", OutcomeFailed, SeverityBlock})
	a := mustAppend(t, s, d)
	if a.Seq != 1 || a.PrevHash != GenesisHash || len(a.Hash) != 64 {
		t.Fatalf("first append = %+v", a)
	}
	a2 := mustAppend(t, s, mkDecision(clock.Now(), "commit", ""))
	if a2.Seq != 2 || a2.PrevHash != a.Hash {
		t.Fatalf("second append %+v does not link to %s", a2, a.Hash)
	}
	e, err := s.GetDecision(ctx, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if e.Seq != 1 || e.Hash != a.Hash || !e.Time.Equal(d.Time) || !e.Blocked || e.ExitCode != 1 ||
		len(e.Gates) != 1 || e.Gates[0] != d.Gates[0] || e.Requester != "cli" || e.GitHead != "0123abcd" {
		t.Fatalf("got %+v", e)
	}
	canon, err := canonjson.Object(d.Body)
	if err != nil || string(e.Body) != string(canon) {
		t.Fatalf("body not stored canonically:\n%s\n%s", e.Body, canon)
	}
	if _, err := s.AppendDecision(ctx, d); !errors.Is(err, ErrDecisionExists) {
		t.Fatalf("duplicate id: %v", err)
	}
	mustVerify(t, s)
})

var _ = contract("append_rejects_invalid", func(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t)
	now := time.Now()
	cases := map[string]func(d *Decision){
		"bad id":                      func(d *Decision) { d.ID = "not-a-ulid" },
		"lower-case id":               func(d *Decision) { d.ID = NewID(now)[:20] + "abcdef" },
		"empty trigger":               func(d *Decision) { d.Trigger = "" },
		"empty requester":             func(d *Decision) { d.Requester = "" },
		"bad outcome":                 func(d *Decision) { d.Gates[0].Outcome = "OK" },
		"bad severity":                func(d *Decision) { d.Gates[0].Severity = "error" },
		"empty gate name":             func(d *Decision) { d.Gates[0].Name = "" },
		"body array":                  func(d *Decision) { d.Body = json.RawMessage(`[1]`) },
		"body empty":                  func(d *Decision) { d.Body = nil },
		"body trailing":               func(d *Decision) { d.Body = json.RawMessage(`{"a":1} {}`) },
		"body not json":               func(d *Decision) { d.Body = json.RawMessage(`{"a":`) },
		"requester differs from body": func(d *Decision) { d.Requester = "mcp:x" },
		"exit differs from body":      func(d *Decision) { d.ExitCode = 7 },
		"blocked differs from body":   func(d *Decision) { d.Blocked = !d.Blocked },
		"trigger differs from body":   func(d *Decision) { d.Trigger = "review" },
		"task differs from body":      func(d *Decision) { d.Task = "other" },
		"time differs from body":      func(d *Decision) { d.Time = d.Time.Add(time.Millisecond) },
		"gates differ from body":      func(d *Decision) { d.Gates[0].Outcome = OutcomePassed },
		"gate count differs":          func(d *Decision) { d.Gates = d.Gates[:0] },
	}
	for name, mutate := range cases {
		d := mkDecision(now, "commit", "", gateSpec{"filesize", OutcomeFailed, SeverityBlock})
		mutate(&d)
		if _, err := s.AppendDecision(ctx, d); !errors.Is(err, ErrInvalidDecision) {
			t.Errorf("%s: err = %v, want ErrInvalidDecision", name, err)
		}
	}
	if rep := mustVerify(t, s); rep.Rows != 0 {
		t.Fatalf("rejected decisions were stored: %d rows", rep.Rows)
	}
})

var _ = contract("gates_derived_from_body", func(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t)
	d := mkDecision(time.Now(), "commit", "", gateSpec{"a", OutcomeFailed, SeverityBlock}, gateSpec{"b", OutcomePassed, SeverityWarn})
	want := d.Gates
	d.Gates = nil
	mustAppend(t, s, d)
	e, err := s.GetDecision(ctx, d.ID)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(e.Gates) != fmt.Sprint(want) {
		t.Fatalf("derived gates %v, want %v", e.Gates, want)
	}
	// A minimal body with no mirrored fields is accepted as opaque.
	d2 := Decision{ID: NewID(time.Now()), Trigger: "commit", Requester: "cli", Body: json.RawMessage(`{"x":1.50}`)}
	mustAppend(t, s, d2)
	e2, err := s.GetDecision(ctx, d2.ID)
	if err != nil || string(e2.Body) != `{"x":1.50}` || len(e2.Gates) != 0 || e2.Time.IsZero() {
		t.Fatalf("opaque body: %+v %v", e2, err)
	}
	mustVerify(t, s)
})

var _ = contract("get_by_prefix", func(t *testing.T, open opener) {
	ctx := context.Background()
	s := open(t)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d1 := mkDecision(at, "commit", "")
	d2 := mkDecision(at, "commit", "") // same millisecond: ids share a long prefix
	mustAppend(t, s, d1)
	mustAppend(t, s, d2)
	common := 0
	for common < 26 && d1.ID[common] == d2.ID[common] {
		common++
	}
	if e, err := s.GetDecision(ctx, d2.ID[:common+1]); err != nil || e.ID != d2.ID {
		t.Fatalf("unique prefix: %v %v", e.ID, err)
	}
	if e, err := s.GetDecision(ctx, toLower(d1.ID)); err != nil || e.ID != d1.ID {
		t.Fatalf("lower-case full id: %v %v", e.ID, err)
	}
	if _, err := s.GetDecision(ctx, d1.ID[:common]); !errors.Is(err, ErrAmbiguousID) {
		t.Fatalf("shared prefix: %v", err)
	}
	if _, err := s.GetDecision(ctx, d1.ID[:5]); !errors.Is(err, ErrNotFound) {
		t.Fatalf("too short: %v", err)
	}
	if _, err := s.GetDecision(ctx, "7ZZZZZZZZZ"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no match: %v", err)
	}
	if _, err := s.GetDecision(ctx, "01%_%_%_"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("wildcards: %v", err)
	}
})

func toLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// tamper edits s's database as an attacker would (storetest.Tamper).
func tamper(t *testing.T, s *Store, stmts ...string) {
	t.Helper()
	storetest.Tamper(t, s.db.SQL, s.db.Dialect == sqldb.Postgres, stmts...)
}

// quickOnly runs the log's quick pass alone (quickverify.Verify), failing
// the test unless it vouches for the log, and checks that VerifyLog agrees.
func quickOnly(t *testing.T, s *Store) LogReport {
	t.Helper()
	ctx := context.Background()
	q, ok := quickverify.Verify(ctx, s.db)
	if !ok {
		t.Fatal("the quick pass did not vouch for an intact log: VerifyLog would run the full pass")
	}
	rep, err := s.VerifyLog(ctx)
	if err != nil || !rep.OK || rep.Size != q.Size || rep.Root != q.Root || rep.Head != q.Head {
		t.Fatalf("quick report %+v differs from VerifyLog's %+v (%v)", q, rep, err)
	}
	return rep
}
