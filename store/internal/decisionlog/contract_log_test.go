package decisionlog

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/store/internal/sqldb"
)

func ids(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

func pick(ds []Decision, idx ...int) []string {
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = ds[j].ID
	}
	return out
}

var _ = contract("list_filters", func(t *testing.T, open opener) {
	ctx := context.Background()
	clock := newClock()
	s := open(t, WithClock(clock.Now))
	start := clock.Now()
	ds := seed(t, s, clock, 7) // failed at 1, 4; task t1 at 1, 3, 5
	yes, no := true, false
	cases := []struct {
		name string
		f    Filter
		want []string
	}{
		{"all", Filter{}, pick(ds, 0, 1, 2, 3, 4, 5, 6)},
		{"gate+outcome", Filter{Gate: "filesize", Outcome: OutcomeFailed}, pick(ds, 1, 4)},
		{"outcome alone", Filter{Outcome: OutcomeNotApplicable}, pick(ds, 0, 1, 2, 3, 4, 5, 6)},
		{"gate with other outcome", Filter{Gate: "tdd_order", Outcome: OutcomeFailed}, pick(ds)},
		{"gate alone", Filter{Gate: "filesize"}, pick(ds, 0, 1, 2, 3, 4, 5, 6)},
		{"unknown gate", Filter{Gate: "nope"}, pick(ds)},
		{"task", Filter{Task: "t1"}, pick(ds, 1, 3, 5)},
		{"trigger", Filter{Trigger: "commit"}, pick(ds, 0, 2, 4, 6)},
		{"since inclusive", Filter{Since: start.Add(5 * time.Second)}, pick(ds, 5, 6)},
		{"until exclusive", Filter{Until: start.Add(2 * time.Second)}, pick(ds, 0, 1)},
		{"since sub-second", Filter{Since: start.Add(4500 * time.Millisecond)}, pick(ds, 5, 6)},
		{"tail newest last", Filter{Tail: 3}, pick(ds, 4, 5, 6)},
		{"limit", Filter{Limit: 2}, pick(ds, 0, 1)},
		{"tail with filter", Filter{Task: "t1", Tail: 2}, pick(ds, 3, 5)},
		{"combined", Filter{Task: "t1", Gate: "filesize", Outcome: OutcomeFailed}, pick(ds, 1)},
		{"blocked", Filter{Blocked: &yes}, pick(ds, 1, 4)},
		{"not blocked", Filter{Blocked: &no}, pick(ds, 0, 2, 3, 5, 6)},
		{"gate blocked", Filter{Gate: "filesize", Blocked: &yes}, pick(ds, 1, 4)},
		{"gate did not block", Filter{Gate: "filesize", Blocked: &no}, pick(ds, 0, 2, 3, 5, 6)},
		{"warn gate never blocks", Filter{Gate: "tdd_order", Blocked: &yes}, pick(ds)},
		{"gate outcome blocked", Filter{Gate: "filesize", Outcome: OutcomeFailed, Blocked: &yes}, pick(ds, 1, 4)},
		{"requester", Filter{Requester: "cli", Task: "t1"}, pick(ds, 1, 3, 5)},
		{"other requester", Filter{Requester: "hook:claude"}, pick(ds)},
	}
	for _, c := range cases {
		got, err := s.ListDecisions(ctx, c.f)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if strings.Join(ids(got), ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: got %v, want %v", c.name, ids(got), c.want)
		}
	}
	for _, f := range []Filter{{Tail: 1, Limit: 1}, {Tail: -1}, {Outcome: "nope"}} {
		if _, err := s.ListDecisions(ctx, f); !errors.Is(err, sqldb.ErrInvalidFilter) {
			t.Errorf("%+v: err = %v, want sqldb.ErrInvalidFilter", f, err)
		}
	}
})

var _ = contract("verify_ok", func(t *testing.T, open opener) {
	clock := newClock()
	s := open(t, WithClock(clock.Now))
	rep := mustVerify(t, s)
	if rep.Rows != 0 || rep.Head != GenesisHash {
		t.Fatalf("empty log report %+v", rep)
	}
	seed(t, s, clock, 5)
	rep = mustVerify(t, s)
	last, _ := s.ListDecisions(context.Background(), Filter{Tail: 1})
	if rep.Rows != 5 || rep.Head != last[0].Hash || rep.Err() != nil {
		t.Fatalf("report %+v", rep)
	}
})

var _ = contract("export_and_verify_export", func(t *testing.T, open opener) {
	ctx := context.Background()
	clock := newClock()
	s := open(t, WithClock(clock.Now))
	ds := seed(t, s, clock, 5)
	var buf bytes.Buffer
	n, err := s.ExportDecisions(ctx, Filter{}, &buf)
	if err != nil || n != 5 {
		t.Fatalf("export: %d %v", n, err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines", len(lines))
	}
	ev, err := facts.DecodeGeneric([]byte(lines[1]))
	if err != nil {
		t.Fatal(err)
	}
	m := ev.(map[string]any)
	labels := m["labels"].(map[string]any)
	result := m["result"].(map[string]any)
	input := m["input"].(map[string]any)
	if m["decision_id"] != ds[1].ID || m["path"] != "tausik/task-done" || m["requested_by"] != "cli" ||
		labels["app"] != "tausik" || labels["task"] != "t1" || result["blocked"] != true ||
		result["exit_code"] != int64(1) || input["trigger"] != "task-done" || m["seq"] != int64(2) ||
		m["metrics"].(map[string]any)["total_ns"] != int64(3) || m["prev_hash"] == "" || m["hash"] == "" {
		t.Fatalf("event fields wrong: %s", lines[1])
	}
	if _, err := time.Parse(time.RFC3339Nano, m["timestamp"].(string)); err != nil {
		t.Fatalf("timestamp: %v", err)
	}
	if !strings.Contains(lines[1], "<reason & detail>") {
		t.Fatalf("HTML escaped or body missing: %s", lines[1])
	}
	rep, err := VerifyExport(strings.NewReader(buf.String()))
	if err != nil || !rep.OK || rep.Rows != 5 || rep.Gaps != 0 {
		t.Fatalf("verify export: %+v %v", rep, err)
	}
	chain := mustVerify(t, s)
	if rep.Head != chain.Head {
		t.Fatalf("export head %s, db head %s", rep.Head, chain.Head)
	}

	// A filtered export verifies as partial.
	var part bytes.Buffer
	if _, err := s.ExportDecisions(ctx, Filter{Task: "t1"}, &part); err != nil {
		t.Fatal(err)
	}
	if rep, err := VerifyExport(&part); err != nil || !rep.OK || rep.Rows != 2 || rep.Gaps != 2 {
		t.Fatalf("partial export: %+v %v", rep, err)
	}

	// Tampering with any line is detected.
	edits := map[string]func([]string) []string{
		"requester label": func(l []string) []string {
			l[2] = strings.Replace(l[2], `"requester":"cli"`, `"requester":"cli2"`, 1)
			return l
		},
		"input only": func(l []string) []string {
			l[2] = strings.Replace(l[2], `"input":{"explicit":false`, `"input":{"explicit":true`, 1)
			return l
		},
		"metrics only": func(l []string) []string {
			l[2] = strings.Replace(l[2], `"metrics":{"eval_ns":2`, `"metrics":{"eval_ns":9`, 1)
			return l
		},
		"body in custom": func(l []string) []string {
			l[2] = strings.Replace(l[2], `"warnings":["w"]`, `"warnings":[]`, 1)
			return l
		},
		"delete middle line": func(l []string) []string { return append(l[:2:2], l[3:]...) },
		"swap lines":         func(l []string) []string { l[1], l[2] = l[2], l[1]; return l },
		"duplicate line":     func(l []string) []string { return append(l[:3:3], l[2:]...) },
		"garbage line":       func(l []string) []string { l[3] = "{not json"; return l },
	}
	for name, edit := range edits {
		l := edit(append([]string(nil), lines...))
		if l[2] == lines[2] && len(l) == len(lines) && name != "swap lines" && name != "garbage line" {
			t.Fatalf("%s: edit did not apply", name)
		}
		rep, err := VerifyExport(strings.NewReader(strings.Join(l, "\n") + "\n"))
		if err == nil && rep.OK && rep.Gaps == 0 {
			t.Errorf("%s: tampered export verified", name)
		}
	}
	if _, err := VerifyExport(strings.NewReader("hello\n")); !errors.Is(err, sqldb.ErrBadExport) {
		t.Fatalf("not an export: %v", err)
	}
	if _, err := VerifyExport(strings.NewReader("")); !errors.Is(err, sqldb.ErrBadExport) {
		t.Fatalf("empty export: %v", err)
	}
})

// TestHashPreimageIsCanonical pins that hashInput's field order is sorted, so
// the preimage equals the generic canonical encoding of the same values.
func TestHashPreimageIsCanonical(t *testing.T) {
	d := mkDecision(time.Now(), "commit", "t", gateSpec{"a", OutcomeFailed, SeverityBlock})
	rec, err := PrepareDecision(d, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	rec.seq, rec.prevHash = 3, GenesisHash
	in := hashInput{Blocked: rec.blocked, Body: string(rec.body), ExitCode: rec.exitCode,
		Gates: []hashGate{{true, "a", "FAILED", "block"}}, GitHead: rec.gitHead, ID: rec.id,
		PrevHash: rec.prevHash, Requester: rec.requester, Seq: rec.seq, Task: rec.task, Time: rec.time, Trigger: rec.trigger}
	b1, err := facts.Canonical(in)
	if err != nil {
		t.Fatal(err)
	}
	g, err := facts.DecodeGeneric(b1)
	if err != nil {
		t.Fatal(err)
	}
	b2, err := facts.Canonical(g)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b1, b2) {
		t.Fatalf("preimage is not canonical:\n%s\n%s", b1, b2)
	}
	h, err := chainHash(rec)
	if err != nil || len(h) != 64 {
		t.Fatalf("hash %q %v", h, err)
	}
}

// TestChainHashFormat pins the documented preimage byte for byte: changing
// it would make every existing log fail verification.
func TestChainHashFormat(t *testing.T) {
	rec := &Record{seq: 1, id: "01JABCDEFGHJKMNPQRSTVWXYZ0", time: "2026-01-01T00:00:00.000000000Z",
		trigger: "commit", task: "", requester: "cli", gitHead: "abc", exitCode: 1, blocked: true,
		body:     []byte(`{"a":"<&>"}`),
		gates:    []GateVerdict{{Name: "filesize", Outcome: OutcomeFailed, Severity: SeverityBlock, Blocks: true}},
		prevHash: GenesisHash}
	preimage := `{"blocked":true,"body":"{\"a\":\"<&>\"}","exit_code":1,` +
		`"gates":[{"blocks":true,"name":"filesize","outcome":"FAILED","severity":"block"}],` +
		`"git_head":"abc","id":"01JABCDEFGHJKMNPQRSTVWXYZ0","prev_hash":"` + GenesisHash + `",` +
		`"requester":"cli","seq":1,"task":"","time":"2026-01-01T00:00:00.000000000Z","trigger":"commit"}`
	sum := sha256.Sum256([]byte(preimage))
	got, err := chainHash(rec)
	if err != nil {
		t.Fatal(err)
	}
	if want := hex.EncodeToString(sum[:]); got != want {
		t.Fatalf("chain hash %s, want %s over %s", got, want, preimage)
	}
}
