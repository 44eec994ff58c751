package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/baseline"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
)

// A default fingerprint leaves out numbers and line references but keeps
// digits inside words (rule codes), and counts the violations sharing it:
// a third finding of the same kind in a file grows the count and blocks
// every finding of that fingerprint; two stay held.
func TestDefaultFingerprintCountsFindings(t *testing.T) {
	a := baseline.FingerprintOf("ruff", policy.Violation{Msg: "a.py:12:4: E501 line too long (120 > 88)", File: "a.py", Rule: "E501"})
	b := baseline.FingerprintOf("ruff", policy.Violation{Msg: "a.py:40:1: E501 line too long (97 > 88)", File: "a.py", Rule: "E501"})
	c := baseline.FingerprintOf("ruff", policy.Violation{Msg: "a.py:40:1: E502 line too long (97 > 88)", File: "a.py", Rule: "E501"})
	if a != b || a == c || !strings.Contains(a.Key, "E501") {
		t.Fatalf("fingerprints %+v %+v %+v: want the first two equal, the third apart, E501 kept", a, b, c)
	}
	bl := &baseline.File{Entries: []baseline.Entry{{Gate: "ruff", Rule: "E501", File: "a.py", Key: a.Key, Quantity: 2}}}
	mk := func(n int) *Decision {
		v := Verdict{Name: "ruff", Severity: gate.SeverityBlock, Outcome: Failed}
		for i := range n {
			v.Violations = append(v.Violations, policy.Violation{Msg: fmt.Sprintf("a.py:%d:1: E501 line too long (99 > 88)", 10+i), File: "a.py", Rule: "E501"})
		}
		return &Decision{Gates: []Verdict{v}}
	}
	d := mk(2)
	holdBaseline(bl, d, func(string) string { return "warn" })
	if got := len(d.Gates[0].Judged()); got != 0 {
		t.Fatalf("two findings under a baseline of two: %d judged, want 0", got)
	}
	d = mk(3)
	holdBaseline(bl, d, func(string) string { return "warn" })
	if got := d.Gates[0].Judged(); len(got) != 3 || !strings.Contains(got[0].Msg, "grew from 2 to 3 findings") {
		t.Fatalf("three findings under a baseline of two: %+v, want all three judged, saying it grew", got)
	}
}

// A verdict reused from the log carries the growth note already: applying
// the baseline again notes it once; an entry of a file the request did not
// name is not called stale; stale_baseline: block fails the gate once,
// however often the verdict is judged.
func TestHoldBaselineIdempotentAndScoped(t *testing.T) {
	bl := &baseline.File{Entries: []baseline.Entry{
		{Gate: "filesize", Rule: "too_long", File: "big.py", Key: "big.py", Quantity: 600},
		{Gate: "filesize", Rule: "too_long", File: "other.py", Key: "other.py", Quantity: 700},
	}}
	d := &Decision{Request: RequestRecord{Files: []string{"big.py"}, Explicit: true}, Gates: []Verdict{{Name: "filesize", Severity: gate.SeverityBlock, Outcome: Failed,
		Violations: []policy.Violation{{Msg: "big.py: 640 lines (max 500)", File: "big.py", Rule: "too_long", Key: "big.py", Quantity: 640}}}}}
	for range 2 {
		d.Gates[0].unsettle()
		if w := holdBaseline(bl, d, func(string) string { return "warn" }); len(w) != 0 {
			t.Fatalf("warnings %q: other.py was not in the request", w)
		}
	}
	if msg := d.Gates[0].Violations[0].Msg; strings.Count(msg, "grew from 600 to 640 lines") != 1 {
		t.Fatalf("message %q: want the growth noted once", msg)
	}
	d = &Decision{Gates: []Verdict{{Name: "filesize", Severity: gate.SeverityBlock, Outcome: Passed}}}
	for range 2 {
		d.Gates[0].unsettle()
		holdBaseline(bl, d, func(string) string { return "block" })
		d.Gates[0].settle()
	}
	if v := d.Gates[0]; v.Outcome != Failed || len(v.Violations) != 2 || v.Violations[0].Rule != baseline.RuleStale {
		t.Fatalf("stale entries with block: %+v, want FAILED with two %s violations", v, baseline.RuleStale)
	}
}

// Encode is canonical: the same entries in any order give the same bytes,
// which ParseBaseline reads back; a fingerprint listed twice is refused.
func TestBaselineEncodeCanonical(t *testing.T) {
	x := baseline.Entry{Gate: "filesize", Rule: "too_long", File: "b.py", Key: "b.py", Quantity: 3}
	y := baseline.Entry{Gate: "class_surface", Rule: "over_cap", File: "a.py", Key: "a.py:A", Quantity: 70}
	b1, err1 := (&baseline.File{Entries: []baseline.Entry{x, y}}).Encode()
	b2, err2 := (&baseline.File{Entries: []baseline.Entry{y, x}}).Encode()
	if err1 != nil || err2 != nil || string(b1) != string(b2) {
		t.Fatalf("encodings differ (%v %v):\n%s\n%s", err1, err2, b1, b2)
	}
	bl, err := baseline.Parse(b1)
	if err != nil || len(bl.Entries) != 2 || bl.Entries[0] != y {
		t.Fatalf("read back %+v, %v", bl, err)
	}
	dup, _ := (&baseline.File{Entries: []baseline.Entry{x, x}}).Encode()
	if _, err := baseline.Parse(dup); err == nil || !strings.Contains(err.Error(), "listed twice") {
		t.Fatalf("a fingerprint listed twice: %v, want an error saying so", err)
	}
}
