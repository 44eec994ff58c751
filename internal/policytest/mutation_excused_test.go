package policytest

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/fs"
)

// demoVerdict evaluates testdata/excused's gate on one file of size bytes.
// Under `policy mutate` engine.EnvMutantBundle swaps in the mutant.
func demoVerdict(t *testing.T, size int) engine.Verdict {
	t.Helper()
	e, err := engine.New(context.Background(), engine.Deps{Root: t.TempDir(), Builtin: os.DirFS("testdata/excused"), Runners: runners.NewRegistry(fs.New())})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := e.Gate("excused_demo")
	doc, err := facts.Parse([]byte(`{"files": {"status": "ok", "files": [{"path": "a", "size": ` + strconv.Itoa(size) + `}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	v, err := engine.EvalGate(context.Background(), g, nil, doc)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestExcusedDemoRed(t *testing.T) {
	if v := demoVerdict(t, 0); v.Outcome != engine.Failed {
		t.Fatalf("an empty file: %s", v.Outcome)
	}
}

func TestExcusedDemoGreen(t *testing.T) {
	if v := demoVerdict(t, 1); v.Outcome != engine.Passed {
		t.Fatalf("a one-byte file: %s", v.Outcome)
	}
}

// An excused gate's mutants run against its red and green Go tests, in this
// package's test binary with the mutant swapped in: every mutant is killed
// or discarded, and nothing is left in TMPDIR.
func TestMutateExcusedGate(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	e, err := engine.New(context.Background(), engine.Deps{Root: ".", Builtin: os.DirFS("testdata/excused"), Runners: runners.NewRegistry(fs.New()),
		BuiltinTests: []string{"TestExcusedDemoRed", "TestExcusedDemoGreen"}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Mutate(context.Background(), e, MutateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gr := rep.Gates[0]
	if !rep.OK() || gr.NotMutated != "" || gr.Table != gate.TableExcused || gr.Killed < 4 || len(gr.Survived) != 0 || gr.Killed+gr.Discarded != gr.Mutants {
		t.Fatalf("report %+v", gr)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Fatalf("TMPDIR keeps %v", left)
	}
}
