package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/engine/config"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/engine/toolcall"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/app/report"
	"github.com/tausik/tausik/store"
)

// evilGate is a gate name (a team bundle may be called anything) that
// would be markup if the report did not escape it.
const evilGate = `<svg onload=alert(1)>`

// syntheticLog appends n engine decisions straight through the store, in
// one transaction, spread over 30 days: hook writes (every seventh
// blocked), commits, some waiving a gate, all carrying a refused
// weakening and a tier that switched a gate off.
func syntheticLog(tb testing.TB, n int) *store.Store {
	tb.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(tb.TempDir(), "tausik.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	step := 30 * 24 * time.Hour / time.Duration(n)
	err = st.WithTx(ctx, func(tx *store.Tx) error {
		for i := range n {
			if _, err := tx.AppendDecision(ctx, synthetic(i, at.Add(time.Duration(i)*step))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

func synthetic(i int, at time.Time) store.Decision {
	d := engine.Decision{Schema: engine.DecisionSchema, ID: store.NewID(at), Time: at, Requester: "hook:claude",
		Warnings: []string{"tausik.json:3: gates.filesize.enabled: refused: false; only the user or managed tier may weaken a gate"},
		Tiers:    []config.TierSetting{{Gate: "tdd_order", Key: "enabled", Tier: "user", File: "/home/u/.tausik/config.json", Value: false, Severity: "block"}}}
	d.Request = engine.RequestRecord{Trigger: engine.TriggerPreWrite, Task: fmt.Sprintf("task-%02d", i%50), Files: []string{}, Gates: []string{}}
	d.Request.Tool = &toolcall.Record{Host: "claude", Tool: "Write", Kind: "write", Targets: []string{fmt.Sprintf("src/f%d.go", i%97)}}
	blocked := i%7 == 0
	gate := "scope_write"
	if i%3 == 0 {
		d.Request = engine.RequestRecord{Trigger: "commit", Files: []string{}, Gates: []string{}, Bypass: []string{"changelog"}}
		d.Requester, gate = "cli", evilGate
	}
	out := engine.Passed
	if blocked {
		out = engine.Failed
	}
	d.Gates = []engine.Verdict{{Name: gate, Source: "builtin", Language: "cel", Severity: "block", Outcome: out, Blocks: blocked,
		Reasons: []policy.Reason{}, Violations: []policy.Violation{}}}
	d.Blocked = blocked
	if blocked {
		d.ExitCode = 1
	}
	body, err := json.Marshal(d)
	if err != nil {
		panic(err)
	}
	return store.Decision{ID: d.ID, Time: at, Trigger: d.Request.Trigger, Task: d.Request.Task, Requester: d.Requester,
		ExitCode: d.ExitCode, Blocked: blocked, Body: body,
		Gates: []store.GateVerdict{{Name: gate, Outcome: store.Outcome(out), Severity: store.SeverityBlock, Blocks: blocked}}}
}

// TestReportSectionsAndEscaping: waivers, refused weakenings and tier
// switches are reported; counts equal what the store's filter returns; a
// gate name that is markup stays text in HTML and Markdown; the same log
// gives the same bytes.
func TestReportSectionsAndEscaping(t *testing.T) {
	ctx := context.Background()
	st := syntheticLog(t, 700)
	rep, err := BuildReport(ctx, st, ReportRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Waivers) != 234 || len(rep.Switched) != 1 || rep.Switched[0].Tier != "user" || len(rep.Notes) != 1 || !rep.Notes[0].Refused {
		t.Fatalf("waivers %d, switched %+v, notes %+v", len(rep.Waivers), rep.Switched, rep.Notes)
	}
	blocked := true
	for _, c := range []struct {
		got report.Count
		f   store.Filter
	}{
		{rep.Total, store.Filter{}},
		{rep.Blocked, store.Filter{Blocked: &blocked}},
		{rep.ByGate[0].Blocked, store.Filter{Gate: rep.ByGate[0].Key, Blocked: &blocked}},
		{rep.ByRequester[1].Blocked, store.Filter{Requester: rep.ByRequester[1].Key, Blocked: &blocked}},
		{rep.Tasks[3].RefusedWrites, store.Filter{Task: rep.Tasks[3].Slug, Trigger: engine.TriggerPreWrite, Blocked: &blocked}},
	} {
		es, err := st.ListDecisions(ctx, c.f)
		if err != nil || len(es) != c.got.N || c.got.N == 0 {
			t.Errorf("count %d for %+v: the filter returns %d (%v)", c.got.N, c.f, len(es), err)
		}
	}
	var a, b, m bytes.Buffer
	for _, w := range []*bytes.Buffer{&a, &b} {
		if err := report.WriteHTML(w, rep); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("the same report renders two different pages")
	}
	if err := report.WriteMarkdown(&m, rep); err != nil {
		t.Fatal(err)
	}
	// A Markdown code span shows its text as is: only markup outside one counts.
	outside := regexp.MustCompile("`[^`]*`").ReplaceAllString(m.String(), "")
	for name, page := range map[string]string{"html": a.String(), "markdown": outside} {
		if strings.Contains(page, "<svg onload") || !strings.Contains(page, "&lt;svg onload=alert(1)&gt;") {
			t.Errorf("%s: the gate name %q is not escaped:\n%.3000s", name, evilGate, page)
		}
		for _, want := range []string{"tdd", "waived changelog", "only the user or managed tier may weaken a gate"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
	}
}

// BenchmarkReportHTML measures `log report` (HTML) over 100,000 decisions:
// the log verified, every decision read and its body decoded, the page
// written. It reports the page's size.
func BenchmarkReportHTML(b *testing.B) {
	const n = 100_000
	ctx := context.Background()
	st := syntheticLog(b, n)
	b.ReportAllocs()
	b.ResetTimer()
	var size int
	for range b.N {
		rep, err := BuildReport(ctx, st, ReportRequest{})
		if err != nil || rep.Total.N != n || !rep.Verify.Log.OK {
			b.Fatalf("report: %v", err)
		}
		var buf bytes.Buffer
		if err := report.WriteHTML(&buf, rep); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	b.ReportMetric(float64(size), "page-bytes")
}
