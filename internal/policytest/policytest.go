// Package policytest is tausik's policy harness: it loads each gate's
// fixtures (facts-level, tree/ and git cases), runs them hermetically
// against the engine, and checks the closed list (every gate COVERED by a
// red and a green fixture, or EXCUSED by Go tests that exist). It uses the
// engine's public API only, so engine/ stays the evaluation core.
package policytest

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/sandbox"
)

// Report is the result of `tausik policy test`: every gate's closed-list
// standing and every fixture's verdict.
type Report struct {
	Gates   []GateReport `json:"gates"`
	Passed  int          `json:"passed"`
	Failed  int          `json:"failed"`
	Skipped int          `json:"skipped"`
	// Sandbox says how the tools fixtures run were confined ("user+mount
	// namespace"), or, when Confined is false, why they ran unconfined.
	Sandbox  string `json:"sandbox"`
	Confined bool   `json:"confined"`
	// Changed lists the working tree's paths that differ after the run from
	// before it (see snapshotTree); any counts as one failure.
	Changed []string `json:"changed"`
}

// Options selects what `policy test` runs.
type Options struct {
	// Gates limits the run to these gates (all when empty).
	Gates []string
	// RequireTools makes a case whose tools are missing (case.yaml
	// "requires") a failure instead of a skip. CI sets it, so a missing
	// dependency can never hide behind a skip there.
	RequireTools bool
}

// GateReport is one gate's part of a Report. Problems are closed-list
// violations (no fixtures, no failing case, a missing excuse test…); each
// counts as one failure.
type GateReport struct {
	Gate     string       `json:"gate"`
	Source   string       `json:"source"`
	Table    string       `json:"table"`
	Problems []string     `json:"problems"`
	Cases    []CaseReport `json:"cases"`
	Excused  *Excused     `json:"excused,omitempty"`
}

// CaseReport is one fixture's result.
type CaseReport struct {
	Name     string   `json:"name"`
	Expect   string   `json:"expect"`
	Outcome  string   `json:"outcome"`
	OK       bool     `json:"ok"`
	Problems []string `json:"problems"`
	// Skipped says which required tool is missing, when the case did not run.
	Skipped string `json:"skipped,omitempty"`
}

// OK reports whether nothing failed.
func (r *Report) OK() bool { return r.Failed == 0 }

// Run runs the fixtures of the named gates (all when opts.Gates is empty)
// and checks the closed list. Each fixture runs hermetically: a tree/ case is
// copied into a fresh temporary directory that is removed afterwards, its
// facts come from runners built for that directory, and the tools they run
// are sandboxed so that nothing else can be written where the machine allows
// it (Report.Sandbox). Whatever the sandbox, the working tree is snapshotted
// before and after, and a changed path fails the run (Report.Changed). An
// unknown gate name is diag.ErrUsage.
func Run(ctx context.Context, e *engine.Engine, opts Options) (*Report, error) {
	names := opts.Gates
	for _, n := range names {
		if _, ok := e.Gate(n); !ok {
			return nil, fmt.Errorf("%w: unknown gate %q (see `tausik policy list`)", diag.ErrUsage, n)
		}
	}
	rep := &Report{Gates: []GateReport{}, Changed: []string{}}
	rep.Confined, rep.Sandbox = sandbox.Available()
	before, err := snapshotTree(ctx, e.Root())
	if err != nil {
		return nil, fmt.Errorf("snapshot the working tree: %w", err)
	}
	cases := runCases(ctx, e, names, opts.RequireTools)
	after, err := snapshotTree(ctx, e.Root())
	if err != nil {
		return nil, fmt.Errorf("snapshot the working tree: %w", err)
	}
	if rep.Changed = changedPaths(before, after); len(rep.Changed) > 0 {
		rep.Failed++
	}
	projectTests := sync.OnceValues(func() (map[string]bool, error) { return projectGoTests(e.Root()) })
	for _, g := range e.Gates() {
		if len(names) > 0 && !slices.Contains(names, g.Name) {
			continue
		}
		gr := GateReport{Gate: g.Name, Source: g.Source, Table: g.Table(), Problems: []string{}, Cases: []CaseReport{}}
		switch gr.Table {
		case "":
			gr.Problems = append(gr.Problems, "in neither table: add fixtures/ with a violating and a clean case, or an excused.yaml")
		case "BOTH":
			gr.Problems = append(gr.Problems, "in both tables: a gate has fixtures/ or an excused.yaml, not both")
		case gate.TableExcused:
			ex, problems := checkExcused(e, g, projectTests)
			gr.Excused = ex
			gr.Problems = append(gr.Problems, problems...)
		case gate.TableCovered:
			var red, green bool
			for _, cr := range cases[g.Name] {
				red = red || (cr.Expect == engine.Failed)
				green = green || (cr.Expect == engine.Passed)
				gr.Cases = append(gr.Cases, cr)
				switch {
				case cr.Skipped != "":
					rep.Skipped++
				case cr.OK:
					rep.Passed++
				default:
					rep.Failed++
				}
			}
			if !red {
				gr.Problems = append(gr.Problems, "no fixture expects FAILED: a gate must prove it can fire")
			}
			if !green {
				gr.Problems = append(gr.Problems, "no fixture expects PASSED: a gate red on every input must not pass")
			}
		}
		if len(gr.Problems) > 0 {
			rep.Failed++
		} else if gr.Table == gate.TableExcused {
			rep.Passed++
		}
		rep.Gates = append(rep.Gates, gr)
	}
	return rep, nil
}

// runCases runs the fixtures of the named COVERED gates (all when names is
// empty), several at a time: a fixture of a command gate mostly waits for its
// tool. The result lists each gate's cases in fixture order.
func runCases(ctx context.Context, e *engine.Engine, names []string, requireTools bool) map[string][]CaseReport {
	type job struct {
		g *gate.Gate
		i int
	}
	out := map[string][]CaseReport{}
	var jobs []job
	for _, g := range e.Gates() {
		if (len(names) > 0 && !slices.Contains(names, g.Name)) || g.Table() != gate.TableCovered {
			continue
		}
		out[g.Name] = make([]CaseReport, len(g.Fixtures))
		for i := range g.Fixtures {
			jobs = append(jobs, job{g, i})
		}
	}
	next := make(chan job)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0)*2, len(jobs)) {
		wg.Go(func() {
			for j := range next {
				out[j.g.Name][j.i] = runCase(ctx, e, j.g, j.g.Fixtures[j.i], requireTools)
			}
		})
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	return out
}

// runCase loads and evaluates one fixture.
func runCase(ctx context.Context, e *engine.Engine, g *gate.Gate, name string, requireTools bool) CaseReport {
	cr := CaseReport{Name: name, Problems: []string{}}
	c, d := loadCase(g, name)
	if d != nil {
		for _, it := range d.Items {
			cr.Problems = append(cr.Problems, it.String())
		}
		return cr
	}
	cr.Expect = c.Expect.Outcome
	if missing := missingTool(ctx, c.Requires, e.Python()); missing != "" {
		if !requireTools {
			cr.Skipped = missing
			return cr
		}
		cr.Problems = append(cr.Problems, missing+" (required by this case; without --require-tools it would be skipped)")
		return cr
	}
	v, err := evalCase(ctx, e, g, c)
	if err != nil {
		cr.Problems = append(cr.Problems, err.Error())
		return cr
	}
	cr.Outcome = v.Outcome
	cr.Problems = append(cr.Problems, c.Expect.check(v)...)
	cr.OK = len(cr.Problems) == 0
	return cr
}

// evalCase produces the case's verdict, from its facts or from its tree.
func evalCase(ctx context.Context, e *engine.Engine, g *gate.Gate, c *Case) (engine.Verdict, error) {
	doc, err := caseFacts(ctx, e, g, c)
	if err != nil {
		return engine.Verdict{}, err
	}
	v, err := engine.EvalGate(ctx, g, c.Params, doc)
	if v.Outcome == "" {
		return v, err // the facts could not be read
	}
	c.settle(&v)
	return v, nil // a policy error is the verdict's COULD_NOT_RUN
}

// caseFacts returns the facts the case's verdict is judged on: its
// facts.json, or what the runners gather from a temp copy of its tree
// (removed before it returns).
func caseFacts(ctx context.Context, e *engine.Engine, g *gate.Gate, c *Case) (_ *facts.Document, retErr error) {
	req := facts.Request{Trigger: c.Trigger, Task: c.Task, Requester: "policy-test", Files: []string{}, Outside: []string{},
		Time: c.Time, Bypass: nonNil(c.Bypass), ChangedSince: c.ChangedSince}
	if len(c.Files) > 0 {
		req.Explicit = true
		req.Files = slices.Sorted(slices.Values(c.Files))
	}
	if c.tree == nil {
		doc := c.facts
		if _, ok := doc.Namespaces[engine.NamespaceRequest]; !ok {
			doc.Set(engine.NamespaceRequest, facts.OK(req))
		}
		return doc, nil
	}
	dir, err := os.MkdirTemp("", "tausik-fixture-")
	if err != nil {
		return nil, fmt.Errorf("fixture temp dir: %w", err)
	}
	defer func() {
		if rmErr := removeFixtureDir(dir); rmErr != nil && retErr == nil {
			retErr = fmt.Errorf("remove the fixture's temp copy: %w", rmErr)
		}
	}()
	if err := copyTree(c.tree, dir); err != nil {
		return nil, fmt.Errorf("copy %s/tree: %w", c.Dir, err)
	}
	if dir, err = filepath.EvalSymlinks(dir); err != nil {
		return nil, err
	}
	if c.Git != nil {
		if err := buildRepo(ctx, dir, c.caseFS, c.Git); err != nil {
			return nil, fmt.Errorf("%s: %w", c.Dir, err)
		}
	}
	if c.Tool != nil {
		return toolFacts(ctx, e, g, c, dir, req)
	}
	return e.GatherFixture(ctx, g, c.Params, dir, req, c.Store)
}

// copyTree copies every file of src into dir, keeping modes' executable bit.
func copyTree(src fs.FS, dir string) error {
	return fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if info, err := d.Info(); err == nil && info.Mode()&0o111 != 0 {
			mode = 0o755
		}
		return os.WriteFile(target, b, mode)
	})
}

// removeFixtureDir removes a fixture's temp copy. Tools leave read-only
// entries (a Go module cache) and may still be finishing a write as they
// exit, so it makes directories writable and tries a few times; a copy that
// cannot be removed is an error, never silently left behind.
func removeFixtureDir(dir string) error {
	var err error
	for attempt := range 5 {
		if attempt > 0 {
			time.Sleep(time.Duration(attempt) * 50 * time.Millisecond)
		}
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(p, 0o755)
			}
			return nil
		})
		if err = os.RemoveAll(dir); err == nil {
			return nil
		}
	}
	return err
}

// missingTool returns why the first unavailable requirement is missing, or "".
func missingTool(ctx context.Context, requires []string, python string) string {
	for _, r := range requires {
		if module, ok := strings.CutPrefix(r, "python:"); ok {
			cmd := exec.CommandContext(ctx, python, "-c", "import "+module)
			if cmd.Run() != nil {
				return fmt.Sprintf("needs the Python module %s importable by %s", module, python)
			}
			continue
		}
		if _, err := exec.LookPath(r); err != nil {
			return fmt.Sprintf("needs %s on PATH", r)
		}
	}
	return ""
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// settle judges v against the case's baseline, as an evaluation would.
func (c *Case) settle(v *engine.Verdict) {
	if c.baseline != nil {
		engine.SettleWithBaseline(c.baseline, v, c.Files, len(c.Files) > 0, c.Params)
	}
}
