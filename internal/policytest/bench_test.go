package policytest

import (
	"context"
	"testing"

	"github.com/tausik/tausik/engine/stdrunners"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/policies"
)

// BenchmarkMutateBuiltins is `tausik policy mutate` over every built-in
// gate: generating the mutants, gathering each fixture's facts once (the
// tree fixtures run git, pytest, ruff, mypy, bandit and go), and judging
// every mutant, GOMAXPROCS at a time. Run it once: -benchtime=1x.
func BenchmarkMutateBuiltins(b *testing.B) {
	e, err := engine.New(context.Background(), engine.Deps{Root: b.TempDir(), Builtin: policies.FS, Runners: stdrunners.New(nil)})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		rep, err := Mutate(context.Background(), e, MutateOptions{})
		if err != nil || !rep.OK() {
			b.Fatalf("%v %+v", err, rep)
		}
		b.ReportMetric(float64(rep.Mutants), "mutants")
	}
}
