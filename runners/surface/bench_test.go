package surface

import (
	"context"
	"os"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/internal/goscan"
	"github.com/tausik/tausik/runners/internal/pyscan"
)

// BenchmarkCompute resolves the bases of a whole tree, laid out as a git
// repository by testdata/surface/tree.sh, that $TAUSIK_SURFACE_TREE names
// (this repository without it), under class_surface's default params: the
// part of every edit run that no cache answers.
func BenchmarkCompute(b *testing.B) {
	root := os.Getenv("TAUSIK_SURFACE_TREE")
	if root == "" {
		root = "../.."
	}
	ctx := context.Background()
	s := &runners.Scope{Root: root}
	pys, err := pySources().Gather(ctx, s)
	if err != nil {
		b.Fatal(err)
	}
	ns := goscan.New().Gather(ctx, s)
	if ns.Status != facts.StatusOK {
		b.Fatalf("go facts: %s", ns.Reason)
	}
	gof := ns.Data.(facts.Go).Files
	files := make([]facts.PythonFile, len(pys))
	names := make([]pyscan.Names, len(pys))
	for i, f := range pys {
		files[i], names[i] = f.File, f.Names
	}
	p := Params{Roots: []string{"."}, Exclude: []string{"**/fixtures/*/tree/**", "**/testdata/**", "testdata/**", "vendor/**/*.go"}, Cap: 60, Named: map[string]bool{}}
	var out facts.Surface
	for b.Loop() {
		out = Compute(p, files, names, gof)
	}
	b.ReportMetric(float64(out.Total), "classes")
	b.ReportMetric(float64(len(out.Classes)), "listed")
}
