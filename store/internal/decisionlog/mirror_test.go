package decisionlog

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tausik/tausik/store/internal/sqldb"
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
		rec, err := PrepareDecision(d, time.Now)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if m, complete := f.quick(rec); m != nil || !complete {
			t.Errorf("%q: fast check %v, complete %v on an intact row", s, m, complete)
		}
		for _, edit := range []func(r *Record){
			func(r *Record) { r.requester += "!" }, func(r *Record) { r.task += "!" },
			func(r *Record) { r.gitHead += "!" }, func(r *Record) { r.id = sqldb.NewID(at.Add(time.Hour)) },
			func(r *Record) { r.time = sqldb.FormatTime(at.Add(time.Second)) }, func(r *Record) { r.exitCode++ },
			func(r *Record) { r.blocked = !r.blocked }, func(r *Record) { r.trigger = "review" },
			func(r *Record) { r.gates[1].Outcome = OutcomeCouldNotRun }, func(r *Record) { r.gates = r.gates[:1] },
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
	rec, err := PrepareDecision(Decision{ID: sqldb.NewID(time.Now()), Trigger: "commit", Requester: "cli",
		Body: json.RawMessage(`{"note":"minimal"}`)}, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	if m, complete := f.check(rec); m != nil || complete {
		t.Errorf("minimal body: %v, complete %v", m, complete)
	}
}
