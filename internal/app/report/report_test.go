package report

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/store"
)

// clock is a store clock the test moves by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// smallLog writes a small real decision log: a task started with a scope,
// a write the scope refused, an allowed write, the scope widened, a commit
// that waived a gate under a tier that switched one off and carried two
// warnings, a verify that passed, and the task closed. It returns the
// entries and the log's verification.
func smallLog(t *testing.T) ([]store.Entry, store.LogReport) {
	t.Helper()
	ctx := store.WithRequester(context.Background(), "cli")
	c := &clock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "tausik.db"), store.WithClock(c.now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	step := func() { c.t = c.t.Add(10 * time.Minute) }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err = st.CreateTask(ctx, store.Task{Slug: "fix-login", Goal: "g", Scope: []string{"src/**"}, Tier: store.TierStandard, Complexity: store.ComplexitySimple})
	must(err)
	step()
	decide := func(d store.Decision) {
		t.Helper()
		d.ID = store.NewID(c.t)
		_, err := st.AppendDecision(ctx, d)
		must(err)
		step()
	}
	decide(store.Decision{Trigger: "pre-write", Task: "fix-login", Requester: "hook:claude", Blocked: true, ExitCode: 1,
		Gates: []store.GateVerdict{{Name: "scope_write", Outcome: store.OutcomeFailed, Severity: "block", Blocks: true}},
		Body:  []byte(`{"request":{"tool":{"host":"claude","tool":"Write","targets":["docs/<x>.md"]}}}`)})
	decide(store.Decision{Trigger: "pre-write", Task: "fix-login", Requester: "hook:claude",
		Gates: []store.GateVerdict{{Name: "scope_write", Outcome: store.OutcomePassed, Severity: "block"}},
		Body:  []byte(`{"request":{"tool":{"host":"claude","tool":"Write","targets":["src/a.py"]}}}`)})
	_, err = st.UpdateTask(ctx, "fix-login", func(t *store.Task) error { t.Scope = append(t.Scope, "docs/**"); return nil })
	must(err)
	step()
	decide(store.Decision{Trigger: "commit", Requester: "cli",
		Gates: []store.GateVerdict{{Name: "ruff", Outcome: store.OutcomePassed, Severity: "block"}, {Name: "changelog", Outcome: store.OutcomeNotApplicable, Severity: "warn"}},
		Body: []byte(`{"request":{"bypass":["changelog"]},"warnings":["project tier: a weakening of filesize.max_lines was refused","slow runner"],` +
			`"tiers":[{"gate":"mypy","key":"enabled","tier":"project","file":"tausik/gates.json","value":false,"severity":"block"},` +
			`{"gate":"bandit","key":"enabled","tier":"user","file":"~/.tausik/config.json","value":true,"severity":"block"},` +
			`{"gate":"ruff","key":"severity","tier":"project","file":"tausik/gates.json","value":"warn"}]}`)})
	decide(store.Decision{Trigger: "verify", Task: "fix-login", Requester: "cli",
		Gates: []store.GateVerdict{{Name: "ruff", Outcome: store.OutcomePassed, Severity: "block"}}, Body: []byte(`{}`)})
	_, err = st.MarkTaskDone(ctx, "fix-login")
	must(err)
	entries, err := st.ListDecisions(ctx, store.Filter{})
	must(err)
	v, err := st.VerifyLog(ctx)
	must(err)
	return entries, v
}

func TestBuildTalliesASmallLog(t *testing.T) {
	entries, v := smallLog(t)
	if len(entries) != 7 {
		t.Fatalf("%d entries, want 7 (start, two writes, update, commit, verify, done)", len(entries))
	}
	r, err := Build(entries, nil, Request{Verify: Verification{Log: v}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Total.N != 7 || r.Blocked.N != 1 || r.Passed.N != 6 {
		t.Errorf("total %d, blocked %d, passed %d; want 7, 1, 6", r.Total.N, r.Blocked.N, r.Passed.N)
	}
	q := map[string]string{}
	lines := map[string]bool{}
	for _, x := range r.Queries {
		if lines[x.Line] {
			t.Errorf("query %s repeats %q: a count's query is listed once", x.ID, x.Line)
		}
		q[x.ID], lines[x.Line] = x.Line, true
	}
	if q[r.Total.Q] != "tausik log list" || q[r.Blocked.Q] != "tausik log list --result blocked" {
		t.Errorf("queries: total %q, blocked %q", q[r.Total.Q], q[r.Blocked.Q])
	}
	if r.Range != "the whole log" || !strings.HasPrefix(r.Unprotected, "every decision: no checkpoint was given") || r.VerifyLine != "tausik log verify" {
		t.Errorf("range %q, unprotected %q, verify line %q", r.Range, r.Unprotected, r.VerifyLine)
	}
	// Gates: sorted by name, outcomes in the order of Outcomes.
	var names []string
	for _, g := range r.Gates {
		names = append(names, g.Name)
	}
	if strings.Join(names, ",") != "changelog,ruff,scope_write" {
		t.Errorf("gates %v", names)
	}
	sw := r.Gates[2]
	if sw.Outcomes[0].N != 1 || sw.Outcomes[1].N != 1 || sw.Blocks.N != 1 || q[sw.Blocks.Q] != "tausik log list --gate scope_write --result blocked" {
		t.Errorf("scope_write row %+v", sw)
	}
	if r.Gates[1].Outcomes[0].N != 2 || r.Gates[0].Outcomes[2].N != 1 {
		t.Errorf("ruff %+v, changelog %+v", r.Gates[1], r.Gates[0])
	}
	if len(r.ByGate) != 1 || r.ByGate[0].Key != "scope_write" || r.ByGate[0].Total.N != 2 {
		t.Errorf("by gate %+v", r.ByGate)
	}
	if len(r.ByRequester) != 1 || r.ByRequester[0].Key != "hook:claude" || r.ByRequester[0].Blocked.N != 1 || r.ByRequester[0].Total.N != 2 {
		t.Errorf("by requester %+v", r.ByRequester)
	}
	if len(r.ByTask) != 1 || r.ByTask[0].Key != "fix-login" || r.ByTask[0].Total.N != 6 {
		t.Errorf("by task %+v", r.ByTask)
	}
	// Hourly buckets over the hours the log spans (09:00 to 10:00).
	if !r.Hourly || len(r.Buckets) != 2 || r.Buckets[0].Total.N != 6 || r.Buckets[0].Blocked.N != 1 || r.Buckets[0].Label != "03-01 09h" ||
		r.Buckets[1].Total.N != 1 || r.Buckets[1].Passed.N != 1 || r.Buckets[1].Label != "03-01 10h" {
		t.Errorf("hourly %v, buckets %+v", r.Hourly, r.Buckets)
	}
	if len(r.Waivers) != 1 || r.Waivers[0].Detail != "waived changelog" {
		t.Errorf("waivers %+v", r.Waivers)
	}
	if len(r.Notes) != 2 || !r.Notes[0].Refused || r.Notes[1].Refused || r.Notes[1].Text != "slow runner" {
		t.Errorf("notes %+v, want the refused weakening first", r.Notes)
	}
	if len(r.Switched) != 1 || r.Switched[0].Gate != "mypy" || r.Switched[0].Tier != "project" || r.Switched[0].Severity != "block" {
		t.Errorf("switched %+v, want mypy only (bandit switched on and ruff's severity are not switch-offs)", r.Switched)
	}
	if len(r.TaskChanges) != 1 || r.TaskChanges[0].Kind != "task fix-login" || r.TaskChanges[0].Detail != "scope [src/**] → [src/**, docs/**]" {
		t.Errorf("task changes %+v", r.TaskChanges)
	}
}

func TestTrail(t *testing.T) {
	entries, v := smallLog(t)
	r, err := Build(entries, nil, Request{Verify: Verification{Log: v}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Tasks) != 1 {
		t.Fatalf("tasks %+v", r.Tasks)
	}
	tr := r.Tasks[0]
	verifyID := entries[5].ID
	want := []struct{ kind, detail string }{
		{"start", "scope [src/**], files [], tier standard"},
		{"refused write", "claude Write → [docs/<x>.md] — blocked by scope_write (FAILED)"},
		{"update", "scope [src/**] → [src/**, docs/**]"},
		{"verify", "passed"},
		{"done", "files []; last verify passed (" + verifyID + ")"},
	}
	if len(tr.Events) != len(want) {
		t.Fatalf("events %+v, want %d (the allowed write is counted, not listed)", tr.Events, len(want))
	}
	for i, w := range want {
		if tr.Events[i].Kind != w.kind || tr.Events[i].Detail != w.detail {
			t.Errorf("event %d = %s %q, want %s %q", i, tr.Events[i].Kind, tr.Events[i].Detail, w.kind, w.detail)
		}
	}
	if tr.Total.N != 6 || tr.Blocked.N != 1 || tr.RefusedWrites.N != 1 || tr.FinalStatus != "done" || tr.FinalScope != "[src/**, docs/**]" ||
		tr.LastVerifyID != verifyID || tr.LastVerifyState != "passed" {
		t.Errorf("trail %+v", tr)
	}
}

func TestBuildRangeAndReadError(t *testing.T) {
	entries, v := smallLog(t)
	since := time.Date(2026, 3, 1, 9, 5, 0, 0, time.UTC)
	until := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	r, err := Build(entries, nil, Request{Since: since, Until: until, Checkpoints: 1, Verify: Verification{Log: v, Covered: 5},
		VerifyArgs: []string{"--checkpoint", "cp one.json"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Range != "2026-03-01 09:05:00Z to 2026-03-01 10:00:00Z (exclusive)" {
		t.Errorf("range %q", r.Range)
	}
	if r.VerifyLine != "tausik log verify --checkpoint 'cp one.json'" {
		t.Errorf("verify line %q", r.VerifyLine)
	}
	if r.Unprotected != "decisions 6..7, after the newest checkpoint the log extends" {
		t.Errorf("unprotected %q", r.Unprotected)
	}
	q := map[string]string{}
	for _, x := range r.Queries {
		q[x.ID] = x.Line
	}
	if q[r.Total.Q] != "tausik log list --between 2026-03-01T09:05:00Z,2026-03-01T10:00:00Z" {
		t.Errorf("total query %q", q[r.Total.Q])
	}
	// The bucket's query is clipped to the range: here the total's, which
	// the Queries section lists once.
	if got := q[r.Buckets[0].Total.Q]; got != "tausik log list --between 2026-03-01T09:05:00Z,2026-03-01T10:00:00Z" || r.Buckets[0].Total.Q != r.Total.Q {
		t.Errorf("bucket query %s %q, want the total's (%s)", r.Buckets[0].Total.Q, got, r.Total.Q)
	}
	broken, err := Build(entries, errors.New("row 3 cannot be read"), Request{Verify: Verification{Log: v, Covered: v.Size}, Checkpoints: 1})
	if err != nil || broken.ReadError != "row 3 cannot be read" || broken.Total.N != 0 || len(broken.Tasks) != 0 || broken.Unprotected != "" {
		t.Errorf("read error: %+v, %v; want the error, nothing counted, nothing unprotected", broken, err)
	}
}

func TestNothingBlocked(t *testing.T) {
	entries, v := smallLog(t)
	passed := append(entries[:1:1], entries[2:]...) // without the refused write
	r, err := Build(passed, nil, Request{Verify: Verification{Log: v}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Blocked.N != 0 || len(r.ByGate) != 0 || len(r.ByRequester) != 0 || len(r.ByTask) != 0 || len(r.Tasks) != 1 || r.Tasks[0].Total.N != 5 {
		t.Errorf("blocked %d, by gate %+v, by requester %+v, by task %+v, tasks %d", r.Blocked.N, r.ByGate, r.ByRequester, r.ByTask, len(r.Tasks))
	}
	var b bytes.Buffer
	WriteMarkdown(&b, r)
	if n := strings.Count(b.String(), "None blocked."); n != 3 {
		t.Errorf("markdown says None blocked %d times, want 3", n)
	}
}

func TestDailyBuckets(t *testing.T) {
	entries, v := smallLog(t)
	entries[6].Time = entries[6].Time.Add(72 * time.Hour) // the close three days on
	r, err := Build(entries, nil, Request{Verify: Verification{Log: v}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Hourly || len(r.Buckets) != 4 || r.Buckets[0].Label != "2026-03-01" || r.Buckets[0].Total.N != 6 || r.Buckets[1].Total.N != 0 || r.Buckets[3].Total.N != 1 {
		t.Errorf("hourly %v, buckets %+v; want four days, 6 and 1 at the ends", r.Hourly, r.Buckets)
	}
}

func TestBuildRefusesABodyItCannotRead(t *testing.T) {
	entries, _ := smallLog(t)
	entries[2].Body = []byte(`{"request":{"bypass":"changelog"}}`)
	_, err := Build(entries, nil, Request{})
	if err == nil || !strings.Contains(err.Error(), "report: decision 3 ("+entries[2].ID+"): body") {
		t.Errorf("err = %v, want one naming decision 3", err)
	}
}

func TestMarkdown(t *testing.T) {
	entries, v := smallLog(t)
	r, _ := Build(entries, nil, Request{Verify: Verification{Log: v}})
	var b bytes.Buffer
	if err := Write(&b, "markdown", r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"# tausik audit report\n\nDecisions: the whole log.\n\n[7](#q1) decisions, [1](#q2) blocked, [6](#q3) passed",
		"The whole log verifies: 7 decisions, chain head `" + v.Head + "`.",
		"**Unprotected:** every decision: no checkpoint was given",
		"| 03-01 09h | [6](#",
		"| 03-01 10h | [1](#",
		"| scope\\_write | [1](#",
		"### Task fix-login\n\n[6](#",
		"| refused write | hook:claude | claude Write → \\[docs/&lt;x&gt;.md\\] — blocked by scope\\_write (FAILED) |",
		"| waiver | cli | waived changelog |",
		"| mypy | block | project | tausik/gates.json |",
		"- <a id=\"q1\"></a>q1: `tausik log list`\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	var again bytes.Buffer
	r2, _ := Build(entries, nil, Request{Verify: Verification{Log: v}})
	WriteMarkdown(&again, r2)
	if again.String() != out {
		t.Error("the same log gives other Markdown bytes")
	}
}

func TestHTML(t *testing.T) {
	entries, v := smallLog(t)
	r, _ := Build(entries, nil, Request{Verify: Verification{Log: v}, Generated: time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)})
	var b bytes.Buffer
	if err := Write(&b, "html", r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasPrefix(out, "<!DOCTYPE html>") || strings.Contains(out, "<script") || strings.Contains(out, "docs/<x>.md") {
		t.Errorf("page is not a self-contained, escaped HTML page:\n%.400s", out)
	}
	if !regexp.MustCompile(`<rect x="\d+\.\d" y="\d+\.\d" width="\d+\.\d" height="\d+\.\d"`).MatchString(out) {
		t.Error("no chart bar drawn at one decimal")
	}
	for _, want := range []string{"docs/&lt;x&gt;.md", "2026-03-02 08:00:00Z", "<svg", `title="tausik log list --result blocked"`, "fix-login"} {
		if !strings.Contains(out, want) {
			t.Errorf("html lacks %q", want)
		}
	}
}

func TestShellLineAndCodeSpan(t *testing.T) {
	for in, want := range map[string]string{
		"plain-arg_1.2:/x+=@": "plain-arg_1.2:/x+=@",
		"two words":           "'two words'",
		"it's":                `'it'\''s'`,
		"":                    "''",
	} {
		if got := shellLine([]string{in}); got != want {
			t.Errorf("shellLine(%q) = %s, want %s", in, got, want)
		}
	}
	if codeSpan("a`b``c") != "``` a`b``c ```" || codeSpan("a``b`c") != "``` a``b`c ```" || codeSpan("ab") != "`ab`" {
		t.Errorf("codeSpan: %s, %s", codeSpan("a`b``c"), codeSpan("ab"))
	}
}
