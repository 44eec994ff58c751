package engine

import (
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/baseline"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
)

// Two classes of one name in one file (Meta inside two models) are two
// baseline entries, numbered by line, not one at the larger quantity: the
// smaller one growing is judged, and the keys stay the same run to run.
func TestMeasuredKeysAreUnique(t *testing.T) {
	mk := func(first, second int) *Decision {
		v := Verdict{Name: "class_surface", Severity: gate.SeverityBlock, Outcome: Failed, Violations: []policy.Violation{
			{Msg: "a.py:30: class Meta", File: "a.py", Line: 30, Rule: "over_cap", Key: "a.py:Meta", Quantity: second},
			{Msg: "a.py:10: class Meta", File: "a.py", Line: 10, Rule: "over_cap", Key: "a.py:Meta", Quantity: first},
		}}
		return &Decision{Gates: []Verdict{v}}
	}
	first := mk(70, 62).Gates[0]
	got := baseline.Entries(first.Name, first.Violations, "c")
	baseline.Sort(got)
	if len(got) != 2 || got[0].Key != "a.py:Meta" || got[0].Quantity != 70 || got[1].Key != "a.py:Meta#2" || got[1].Quantity != 62 {
		t.Fatalf("entries %+v, want a.py:Meta 70 (line 10) and a.py:Meta#2 62 (line 30)", got)
	}
	bl := &baseline.File{Entries: got}
	d := mk(70, 65)
	holdBaseline(bl, d, func(string) string { return "warn" })
	judged := d.Gates[0].Judged()
	if len(judged) != 1 || judged[0].Line != 30 || !strings.Contains(judged[0].Msg, "grew from 62 to 65") {
		t.Fatalf("the second Meta grew from 62 to 65: judged %+v, want it alone", judged)
	}
}

// A baseline file cut short is an error naming the file and its last line.
func TestBaselineCutShortNamesTheLine(t *testing.T) {
	_, err := baseline.Parse([]byte("{\n \"format\": \"tausik-baseline/v1\",\n \"entries\": [\n  {\"gate\": \"x\","))
	if err == nil || !strings.Contains(err.Error(), baseline.Path+":4:") || !strings.Contains(err.Error(), "ends before") {
		t.Fatalf("err = %v, want %s:4: … ends before the JSON does", err, baseline.Path)
	}
}
