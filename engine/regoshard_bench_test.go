package engine

import (
	"context"
	"os"
	"runtime"
	"testing"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/policies"
	"github.com/tausik/tausik/runners/surface"
)

// BenchmarkRegoShards evaluates the class_surface policy alone, compiled
// as written ("whole") and split over GOMAXPROCS shards ("split"), on the
// adversarial synthetic facts of 20,000 classes, and, when
// TAUSIK_BENCH_SURFACE names the output of `tausik facts --namespace
// surface` (the stdlib tree of docs/performance.md), on those facts too.
// "compile" is what the split adds to the policy's compilation.
func BenchmarkRegoShards(b *testing.B) {
	b.Setenv(policy.EnvShardMin, "0")
	e := builtinEngine(b, b.TempDir())
	src, err := policies.FS.ReadFile("class_surface/policy.rego")
	if err != nil {
		b.Fatal(err)
	}
	params := classSurfaceParams(e, nil)
	inputs := map[string]*policy.Input{}
	py, gof := syntheticPython(1, 20_000, 7), facts.Go{Files: []facts.GoFile{}}
	syn, _ := classSurfaceInput(b, e, py, gof, nil)
	inputs["adversarial20k"] = syn.ForGate([]string{surface.Namespace}, params)
	if f := os.Getenv("TAUSIK_BENCH_SURFACE"); f != "" {
		raw, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		doc, err := facts.Parse(raw)
		if err != nil {
			b.Fatal(err)
		}
		inputs["facts"] = policy.NewDocumentInput(doc, nil).ForGate([]string{surface.Namespace}, params)
	}
	for name, in := range inputs {
		for _, mode := range []struct {
			name  string
			procs int
		}{{"whole", 1}, {"split", runtime.GOMAXPROCS(0)}} {
			p := compileOn(b, mode.procs, classSurface, string(src))
			b.Run(name+"/"+mode.name, func(b *testing.B) {
				cpu0 := processCPU(b)
				for b.Loop() {
					if r, err := p.Eval(context.Background(), in); err != nil || len(r.Violations) == 0 {
						b.Fatalf("%d violations, %v", len(r.Violations), err)
					}
				}
				b.ReportMetric(float64(processCPU(b)-cpu0)/1e6/float64(b.N), "cpu-ms/op")
			})
		}
	}
	for _, mode := range []struct {
		name  string
		procs int
	}{{"whole", 1}, {"split", runtime.GOMAXPROCS(0)}} {
		b.Run("compile/"+mode.name, func(b *testing.B) {
			for b.Loop() {
				compileOn(b, mode.procs, classSurface, string(src))
			}
		})
	}
}

// compileOn compiles a Rego policy with procs cores, which sets how many
// shards its evaluations run on.
func compileOn(b *testing.B, procs int, gate, src string) policy.Policy {
	b.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	d := &diag.Diagnostics{}
	p := policy.CompileRego(context.Background(), gate, "policy.rego", []byte(src), d)
	if err := d.Err(); err != nil || p == nil {
		b.Fatalf("compile with %d cores: %v", procs, err)
	}
	return p
}
