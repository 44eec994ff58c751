package store

import (
	"encoding/json"
	"testing"
	"time"
)

// TestFastMirrorAgreesWithExactCheck pins the fast column check to the exact
// one: on every body the store writes it must accept what checkBody accepts
// and call the row complete exactly when the body mirrors every column, and
// it must never accept a column the exact check rejects.
func TestFastMirrorAgreesWithExactCheck(t *testing.T) {
	tricky := []string{"cli", `mcp:"quoted"`, `back\slash`, "uni ✓ é 😀", "\u2028line", "<&>", "tab\there", ""}
	var f fastMirror
	for i, s := range tricky {
		at := time.Date(2026, 2, 3, 4, 5, 6, i*1000, time.UTC)
		d := mkDecision(at, "commit", s, gateSpec{"g" + s, OutcomeFailed, SeverityBlock}, gateSpec{"h", OutcomePassed, SeverityWarn})
		var body map[string]any
		if err := json.Unmarshal(d.Body, &body); err != nil {
			t.Fatal(err)
		}
		body["requester"], body["git_head"] = s, s
		d.Requester, d.GitHead = s, s
		if d.Requester == "" {
			d.Requester, body["requester"] = "x", "x"
		}
		d.Body, _ = json.Marshal(body)
		rec, err := prepareDecision(d, time.Now)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if m, complete := f.quick(rec); m != nil || !complete {
			t.Errorf("%q: fast check %v, complete %v on an intact row", s, m, complete)
		}
		for _, edit := range []func(r *record){
			func(r *record) { r.requester += "!" }, func(r *record) { r.task += "!" },
			func(r *record) { r.gitHead += "!" }, func(r *record) { r.id = NewID(at.Add(time.Hour)) },
			func(r *record) { r.time = formatTime(at.Add(time.Second)) }, func(r *record) { r.exitCode++ },
			func(r *record) { r.blocked = !r.blocked }, func(r *record) { r.trigger = "review" },
			func(r *record) { r.gates[1].Outcome = OutcomeCouldNotRun }, func(r *record) { r.gates = r.gates[:1] },
		} {
			trial := *rec
			trial.gates = append([]GateVerdict(nil), rec.gates...)
			edit(&trial)
			if m, _ := f.check(&trial); m == nil || consistencyProblem(&trial) == nil {
				t.Errorf("%q: an edited column passed (%+v)", s, trial)
			}
		}
	}
	// A body without the mirrored fields is not complete: the chain decides.
	rec, err := prepareDecision(Decision{ID: NewID(time.Now()), Trigger: "commit", Requester: "cli",
		Body: json.RawMessage(`{"note":"minimal"}`)}, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	if m, complete := f.check(rec); m != nil || complete {
		t.Errorf("minimal body: %v, complete %v", m, complete)
	}
}

// columnTimeByParse is appendColumnTime without its short cut.
func columnTimeByParse(s string) (string, bool) {
	t, err := parseTime(s)
	if err != nil {
		return "", false
	}
	return t.UTC().Format(timeLayout), true
}

// TestColumnTimeShortCut holds appendColumnTime's short cut for UTC times
// to the parse it skips, on the edges of every field.
func TestColumnTimeShortCut(t *testing.T) {
	for _, s := range []string{
		"2026-01-01T00:00:00.004Z", "2026-12-31T23:59:59.999999999Z", "2026-01-01T00:00:00.1Z",
		"2024-02-29T12:00:00.5Z", "2025-02-29T12:00:00.5Z", "2000-02-29T00:00:00.5Z", "1900-02-29T00:00:00.5Z",
		"2026-04-31T00:00:00.5Z", "2026-00-10T00:00:00.5Z", "2026-13-10T00:00:00.5Z", "2026-01-00T00:00:00.5Z",
		"2026-01-32T00:00:00.5Z", "2026-01-01T24:00:00.5Z", "2026-01-01T00:60:00.5Z", "2026-01-01T00:00:60.5Z",
		"2026-01-01T00:00:00.1234567890Z", "2026-01-01T00:00:00,5Z", "2026-01-01T00:00:00.5z", "2026-01-01T00:00:00Z",
		"2026-01-01T00:00:00.5+00:00", "2026-01-01T00:00:00.x5Z", "0000-01-01T00:00:00.5Z", "2026-01-01t00:00:00.5Z",
		"2026-01-01T00:00:00.000000000Z", "２０２６-01-01T00:00:00.5Z",
	} {
		got, gotOK := appendColumnTime(nil, s)
		want, wantOK := columnTimeByParse(s)
		if gotOK != wantOK || string(got) != want {
			t.Errorf("%q: got %q %v, the parse gives %q %v", s, got, gotOK, want, wantOK)
		}
	}
	if !utcFixable("2024-02-29T12:00:00.5Z") {
		t.Error("the short cut does not take a time append writes")
	}
}

// FuzzColumnTime holds the short cut to the parse on any input.
func FuzzColumnTime(f *testing.F) {
	f.Add("2026-01-01T00:00:00.004Z")
	f.Add("2024-02-29T23:59:59.123456789Z")
	f.Fuzz(func(t *testing.T, s string) {
		got, gotOK := appendColumnTime(nil, s)
		want, wantOK := columnTimeByParse(s)
		if gotOK != wantOK || string(got) != want {
			t.Fatalf("%q: got %q %v, the parse gives %q %v", s, got, gotOK, want, wantOK)
		}
	})
}
