package policytest

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/internal/yamlread"
)

// Excused is a gate's excused.yaml: why no synthetic fixture can drive it, and
// the Go tests that prove it red and green instead.
type Excused struct {
	Reason    string `json:"reason"`
	RedTest   string `json:"red_test"`
	GreenTest string `json:"green_test"`
}

// minExcuseLen is the shortest reason accepted: "hard to test" is not a reason.
const minExcuseLen = 21

// Compiled on first use, not at every process start (docs/performance.md).
var goTestFuncRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^func (Test[A-Za-z0-9_]*)\(`) })

// checkExcused validates g's excused.yaml against the Go test sources: the
// built-in test index for built-in gates, the project's *_test.go files
// (projectTests, see projectGoTests) for team gates.
func checkExcused(e *engine.Engine, g *gate.Gate, projectTests func() (map[string]bool, error)) (*Excused, []string) {
	file := path.Join(g.Dir, gate.FileExcused)
	d := &diag.Diagnostics{Kind: diag.ErrBundle}
	raw, err := fs.ReadFile(g.FS(), gate.FileExcused)
	if err != nil {
		return nil, []string{fmt.Sprintf("%s: %v", file, err)}
	}
	r := yamlread.Reader{File: file, D: d}
	var ex Excused
	if root := r.Parse(raw); root != nil {
		f := r.Fields(root, "excused.yaml", "reason", "red_test", "green_test")
		r.Require(root, f, "excused.yaml", "reason", "red_test", "green_test")
		ex = Excused{Reason: r.Str(f["reason"], "reason"), RedTest: r.Str(f["red_test"], "red_test"), GreenTest: r.Str(f["green_test"], "green_test")}
		if f["reason"] != nil && len(strings.TrimSpace(ex.Reason)) < minExcuseLen {
			d.Add(file, f["reason"].Line, "reason must explain in more than 20 characters why no fixture can drive the gate")
		}
	}
	var problems []string
	for _, it := range d.Items {
		problems = append(problems, it.String())
	}
	if len(problems) > 0 {
		return &ex, problems
	}
	known, err := goTests(e, g, projectTests)
	if err != nil {
		return &ex, []string{fmt.Sprintf("%s: list Go tests: %v", file, err)}
	}
	for _, t := range []struct{ role, name string }{{"red_test", ex.RedTest}, {"green_test", ex.GreenTest}} {
		if known != nil && !known[t.name] {
			problems = append(problems, fmt.Sprintf("%s: %s %q names no Go test function in %s", file, t.role, t.name, testSourceName(g)))
		}
	}
	if ex.RedTest == ex.GreenTest && ex.RedTest != "" {
		problems = append(problems, fmt.Sprintf("%s: red_test and green_test must be different tests", file))
	}
	return &ex, problems
}

func testSourceName(g *gate.Gate) string {
	if g.Source == gate.SourceBuiltin {
		return "tausik's test sources"
	}
	return "the project's *_test.go files"
}

// goTests returns the Go test function names that can back g's excuse. A
// built-in gate's excuse names tausik's own tests, which the shipped binary
// does not carry: with no index given (Deps.BuiltinTests), those names were
// proven against tausik's sources when it was built (policies'
// TestBuiltinExcusesNameTests), and known is nil.
func goTests(e *engine.Engine, g *gate.Gate, projectTests func() (map[string]bool, error)) (map[string]bool, error) {
	if g.Source != gate.SourceBuiltin {
		return projectTests()
	}
	if e.BuiltinTests() == nil {
		return nil, nil
	}
	known := map[string]bool{}
	for _, n := range e.BuiltinTests() {
		known[n] = true
	}
	return known, nil
}

// projectGoTests returns the names of the Test functions in the project's
// *_test.go files. It walks the whole project, so `policy test` does it at
// most once, however many team gates are excused.
func projectGoTests(root string) (map[string]bool, error) {
	known := map[string]bool{}
	err := walkTestFiles(root, func(p string) error { return scanTestFuncs(p, known) })
	return known, err
}

// walkTestFiles calls fn with every *_test.go file below root that is one of
// the project's own (see skipForTests), stopping at the first error.
func walkTestFiles(root string, fn func(p string) error) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipForTests(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		// Only a regular file is read: a FIFO named x_test.go would block
		// the scan, a symlink could lead out of the project.
		if !d.Type().IsRegular() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		return fn(p)
	})
}

// skipForTests names directories whose *_test.go files are not the
// project's tests: dependencies, fixtures and sample data.
func skipForTests(name string) bool {
	return name == "node_modules" || name == "vendor" || name == "testdata" || name == "fixtures" || strings.HasPrefix(name, ".")
}

// scanTestFuncs adds the names of the Test functions declared in the Go file
// at p to known.
func scanTestFuncs(p string, known map[string]bool) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if m := goTestFuncRE().FindStringSubmatch(sc.Text()); m != nil {
			known[m[1]] = true
		}
	}
	return sc.Err()
}
