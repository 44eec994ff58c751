package surface

import (
	"fmt"
	"reflect"
	"runtime"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners/internal/pyscan"
)

// TestComputeParallelIsSerial: Compute looks the bases' candidates up on
// every core, through the module table's memo; on a tree whose classes all
// resolve through imports (each module's K<i> bases sh.Base, ambiguous,
// and the next module's K<i+1>), the namespace on all cores is the one a
// single core computes.
func TestComputeParallelIsSerial(t *testing.T) {
	const n = 600
	sc := pyscan.NewScanner()
	var py []facts.PythonFile
	var names []pyscan.Names
	add := func(path, src string) {
		f, nm := sc.ScanNames(path, []byte(src))
		if !f.Parsed {
			t.Fatalf("%s does not parse: %+v", path, f.Error)
		}
		py, names = append(py, f), append(names, nm)
	}
	for i := range n {
		add(fmt.Sprintf("src/ns/m%05d.py", i), fmt.Sprintf(
			"import ns.shared as sh\nfrom ns import m%05d as nx\n\nclass K%d(sh.Base, nx.K%d):\n    def k%d(self): pass\n",
			i+1, i, i+1, i))
	}
	add("src/ns/shared.py", "class Base:\n    def a(self): pass\n\nclass Base:\n    def b(self): pass\n")
	// wide: classes of one depth, enough to be united on every core.
	const wide = 1100
	for i := range wide {
		add(fmt.Sprintf("src/ns/w%05d.py", i), fmt.Sprintf("from ns import m00000 as nx\n\nclass W%d(nx.K0):\n    def w%d(self): pass\n", i, i))
	}
	p := Params{Roots: []string{"."}, Cap: 60}
	// The cores are set, not the machine's: a runner with one CPU would
	// otherwise compare the serial path with itself.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	par := Compute(p, py, names, nil)
	for _, procs := range []int{2, 1} {
		runtime.GOMAXPROCS(procs)
		if got := Compute(p, py, names, nil); !reflect.DeepEqual(par, got) {
			t.Fatalf("Compute on 8 cores and on %d differ", procs)
		}
	}
	// Each K's sh.Base is ambiguous (shared.py defines Base twice). K<i>'s
	// chain through nx.K<i+1> holds 600-i names: listed are the classes at
	// or over the cap (i <= 540) and K541, whose worst candidate takes it
	// there; every W<i> reaches K0's chain.
	if len(par.AmbiguousBases) != n || len(par.Classes) != n-58+wide {
		t.Fatalf("%d ambiguous bases, %d classes listed: the tree did not resolve through its imports", len(par.AmbiguousBases), len(par.Classes))
	}
}
