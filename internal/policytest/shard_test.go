package policytest

import (
	"context"
	"reflect"
	"runtime"
	"sync"
	"testing"

	"github.com/tausik/tausik/engine/commandgate"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/internal/project"

	"github.com/tausik/tausik/engine"
)

// TestShardedFixturesMatchWhole: every built-in Rego gate's fixtures that
// need no external tool (their facts given, or a tree the in-process
// runners read) give the same verdict with the policy compiled for one core
// (as written) and for several (its violations split into shards,
// engine/regoshard), both evaluated on several cores. The fixtures that
// need tools are left out, and are not judged split elsewhere either: in
// `policy test` a fixture's input is under the split's threshold
// (EnvShardMin), so it is evaluated whole.
func TestShardedFixturesMatchWhole(t *testing.T) {
	t.Setenv(policy.EnvShardMin, "0") // a fixture's input is small
	ctx := context.Background()
	e, err := project.Open(ctx, project.Setup{Root: t.TempDir(), NoStore: true})
	if err != nil {
		t.Fatal(err)
	}
	procs := max(runtime.GOMAXPROCS(0), 2)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	type pair struct{ whole, split *gate.Gate }
	gates := map[string]pair{}
	for _, g := range e.Gates() {
		if g.Language != gate.LangRego || g.Table() != gate.TableCovered || g.Dir == commandgate.PolicyDir {
			continue
		}
		src, err := g.PolicySource()
		if err != nil {
			t.Fatal(err)
		}
		runtime.GOMAXPROCS(1)
		whole, err := g.WithPolicySource(ctx, src)
		runtime.GOMAXPROCS(procs)
		if err != nil {
			t.Fatalf("%s: %v", g.Name, err)
		}
		split, err := g.WithPolicySource(ctx, src)
		if err != nil {
			t.Fatalf("%s: %v", g.Name, err)
		}
		gates[g.Name] = pair{whole, split}
	}
	var mu sync.Mutex
	compared := 0
	var jobs []func()
	for name, p := range gates {
		for _, fx := range p.whole.Fixtures {
			jobs = append(jobs, func() {
				c, d := loadCase(p.whole, fx)
				if d != nil {
					t.Errorf("%s/%s: %v", name, fx, d.Items)
					return
				}
				if len(c.Requires) > 0 {
					return
				}
				doc, err := caseFacts(ctx, e, p.whole, c)
				if err != nil {
					t.Errorf("%s/%s: %v", name, fx, err)
					return
				}
				want, werr := engine.EvalGate(ctx, p.whole, c.Params, doc)
				got, gerr := engine.EvalGate(ctx, p.split, c.Params, doc)
				want.EvalNS, got.EvalNS = 0, 0
				if !reflect.DeepEqual(got, want) || (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
					t.Errorf("%s/%s: split\n%+v (%v)\nwhole\n%+v (%v)", name, fx, got, gerr, want, werr)
				}
				mu.Lock()
				compared++
				mu.Unlock()
			})
		}
	}
	parallel(len(jobs), 2*procs, func(i int) { jobs[i]() })
	t.Logf("compared %d fixtures of %d gates", compared, len(gates))
	if len(gates) < 15 || compared < 200 {
		t.Fatalf("compared %d fixtures of %d gates", compared, len(gates))
	}
}
