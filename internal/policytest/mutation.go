package policytest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/tausik/tausik/engine/commandgate"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/policytest/mutate"
)

// MutateOptions selects what `policy mutate` runs.
type MutateOptions struct {
	// Gates limits the run to these gates (all when empty).
	Gates []string
	// Timeout bounds one mutant's run of the gate's fixtures (or Go tests);
	// a mutant that takes longer counts as killed, as in Stryker. Zero is
	// DefaultMutantTimeout.
	Timeout time.Duration
	// Workers is how many mutants run at once; zero is GOMAXPROCS.
	Workers int
}

// DefaultMutantTimeout is a mutant's time limit when MutateOptions has none.
const DefaultMutantTimeout = 60 * time.Second

// MutationReport is the result of `tausik policy mutate`.
type MutationReport struct {
	Gates []GateMutation `json:"gates"`
	// Score is killed/(killed+survived) over every gate; 1 when no mutant
	// could survive.
	Score    float64 `json:"score"`
	Mutants  int     `json:"mutants"`
	Killed   int     `json:"killed"`
	Survived int     `json:"survived"`
}

// GateMutation is one gate's part of a MutationReport.
type GateMutation struct {
	Gate  string `json:"gate"`
	File  string `json:"file"`
	Table string `json:"table"`
	// Mutants were generated; each is killed, survived, discarded (did not
	// compile, or returned the wrong shape) or declared equivalent.
	Mutants    int        `json:"mutants"`
	Killed     int        `json:"killed"`
	Survived   []Survivor `json:"survived"`
	Discarded  int        `json:"discarded"`
	Equivalent int        `json:"equivalent"`
	// TimedOut counts the killed mutants that ran out of time.
	TimedOut int     `json:"timed_out"`
	Score    float64 `json:"score"`
	// NotMutated says why the gate could not be mutated at all.
	NotMutated string `json:"not_mutated,omitempty"`
	// Problems make the run fail whatever the score: a fixture that fails
	// on the unmutated policy, a stale equivalent declaration.
	Problems []string `json:"problems"`
}

// Survivor is a mutant no fixture noticed.
type Survivor struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Operator string `json:"operator"`
	Original string `json:"original"`
	Mutant   string `json:"mutant"`
	// Fixtures are the cases (or Go tests) it passed.
	Fixtures []string `json:"fixtures"`
}

// OK reports whether no gate has a problem.
func (r *MutationReport) OK() bool {
	for _, g := range r.Gates {
		if len(g.Problems) > 0 {
			return false
		}
	}
	return true
}

// Below lists the gates whose score is under min.
func (r *MutationReport) Below(min float64) []string {
	var out []string
	for _, g := range r.Gates {
		if g.NotMutated == "" && g.Score < min {
			out = append(out, g.Gate)
		}
	}
	return out
}

// mutantResult is what running one mutant came to.
type mutantResult int

const (
	resultKilled mutantResult = iota
	resultSurvived
	resultDiscarded
	resultTimedOut
)

// gateRun is one gate being mutation-tested.
type gateRun struct {
	g       *gate.Gate
	rep     *GateMutation
	mutants []mutate.Mutant
	results []mutantResult
	// kill runs the gate's checks (fixtures, or an excused gate's Go tests)
	// against a mutant source; names are what a survivor passed.
	kill    func(ctx context.Context, src []byte) mutantResult
	names   []string
	decls   []equivalentDecl
	cleanup func()
}

// Mutate mutation-tests the selected gates: it makes every mutant of each
// gate's policy (see internal/policytest/mutate) and runs the gate's fixtures, or an
// excused gate's red and green Go tests, against each; mutants run
// GOMAXPROCS at a time, each compiled once. Fixture facts are gathered once
// per case, hermetically as in Run, and shared by every mutant. An unknown
// gate name is diag.ErrUsage.
func Mutate(ctx context.Context, e *engine.Engine, opts MutateOptions) (*MutationReport, error) {
	for _, n := range opts.Gates {
		if _, ok := e.Gate(n); !ok {
			return nil, fmt.Errorf("%w: unknown gate %q (see `tausik policy list`)", diag.ErrUsage, n)
		}
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultMutantTimeout
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var runs []*gateRun
	for _, g := range e.Gates() {
		if len(opts.Gates) == 0 || slices.Contains(opts.Gates, g.Name) {
			runs = append(runs, &gateRun{g: g, rep: &GateMutation{Gate: g.Name, File: g.PolicyFile, Table: g.Table(),
				Survived: []Survivor{}, Problems: []string{}}})
		}
	}
	// Gathering fixture facts mostly waits for tools (pytest, git), so every
	// gate prepares at once, with as many fixtures in flight as `policy test`.
	gather := make(chan struct{}, 2*runtime.GOMAXPROCS(0))
	parallel(len(runs), len(runs), func(i int) { prepareGate(ctx, e, runs[i], gather) })
	type job struct{ run, mutant int }
	var jobs []job
	for i, r := range runs {
		r.results = make([]mutantResult, len(r.mutants))
		for j := range r.mutants {
			jobs = append(jobs, job{i, j})
		}
	}
	parallel(len(jobs), workers, func(k int) {
		r, m := runs[jobs[k].run], jobs[k].mutant
		mctx, cancel := context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
		r.results[m] = r.kill(mctx, r.mutants[m].Source)
		if r.results[m] == resultKilled && mctx.Err() != nil {
			r.results[m] = resultTimedOut
		}
	})
	rep := &MutationReport{Gates: []GateMutation{}}
	for _, r := range runs {
		if r.cleanup != nil {
			r.cleanup()
		}
		r.tally()
		rep.Gates = append(rep.Gates, *r.rep)
		rep.Mutants += r.rep.Mutants
		rep.Killed += r.rep.Killed
		rep.Survived += len(r.rep.Survived)
	}
	rep.Score = score(rep.Killed, rep.Survived)
	return rep, nil
}

// parallel calls f(0..n-1), workers at a time.
func parallel(n, workers int, f func(int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

func score(killed, survived int) float64 {
	if killed+survived == 0 {
		return 1
	}
	return float64(killed) / float64(killed+survived)
}

// prepareGate generates the gate's mutants and readies what kills them, or
// says why the gate cannot be mutated.
func prepareGate(ctx context.Context, e *engine.Engine, r *gateRun, gather chan struct{}) {
	g := r.g
	if g.Dir == commandgate.PolicyDir {
		r.rep.NotMutated = "a config-defined command gate runs the generic command policy (" + commandgate.PolicyDir +
			"), whose own fixtures are mutation-tested with tausik's built-ins"
		return
	}
	switch g.Table() {
	case gate.TableCovered:
		r.kill, r.names = fixtureKiller(ctx, e, g, r.rep, gather)
	case gate.TableExcused:
		r.kill, r.names = excusedKiller(ctx, e, g, r)
	default:
		r.rep.NotMutated = "the gate is in neither closed-list table, or in both (`tausik policy test` says which)"
		return
	}
	if r.kill == nil {
		if r.rep.NotMutated == "" && len(r.rep.Problems) == 0 {
			r.rep.NotMutated = "nothing to run its mutants against"
		}
		return
	}
	src, err := g.PolicySource()
	if err == nil {
		r.mutants, err = mutate.Generate(g.Language, g.PolicyFile, src)
	}
	if err != nil {
		r.rep.NotMutated = fmt.Sprintf("its policy could not be mutated: %v", err)
		r.kill = nil
		return
	}
	r.decls = loadEquivalents(g, r.rep)
}

// preparedCase is a fixture with its facts gathered, ready for any mutant.
type preparedCase struct {
	c   *Case
	doc *facts.Document
}

// fixtureKiller gathers every fixture's facts once and checks that the
// unmutated policy passes them all; its killer runs a mutant against them.
func fixtureKiller(ctx context.Context, e *engine.Engine, g *gate.Gate, rep *GateMutation, gather chan struct{}) (func(context.Context, []byte) mutantResult, []string) {
	cases := make([]preparedCase, len(g.Fixtures))
	problems := make([][]string, len(g.Fixtures))
	parallel(len(g.Fixtures), cap(gather), func(i int) {
		gather <- struct{}{}
		defer func() { <-gather }()
		name := g.Fixtures[i]
		c, d := loadCase(g, name)
		if d != nil {
			problems[i] = []string{fmt.Sprintf("%s: %v", name, d)}
			return
		}
		if missing := missingTool(ctx, c.Requires, e.Python()); missing != "" {
			problems[i] = []string{fmt.Sprintf("%s: %s (every fixture must run to judge a mutant)", name, missing)}
			return
		}
		doc, err := caseFacts(ctx, e, g, c)
		if err != nil {
			problems[i] = []string{fmt.Sprintf("%s: %v", name, err)}
			return
		}
		v, _ := engine.EvalGate(ctx, g, c.Params, doc)
		c.settle(&v)
		if ps := c.Expect.check(v); len(ps) > 0 {
			problems[i] = []string{fmt.Sprintf("%s fails on the unmutated policy: %v", name, ps)}
			return
		}
		cases[i] = preparedCase{c: c, doc: doc}
	})
	for _, p := range problems {
		rep.Problems = append(rep.Problems, p...)
	}
	if len(rep.Problems) > 0 {
		return nil, nil
	}
	kill := func(ctx context.Context, src []byte) mutantResult {
		mg, err := g.WithPolicySource(ctx, src)
		if err != nil {
			return resultDiscarded
		}
		for _, pc := range cases {
			v, err := engine.EvalGate(ctx, mg, pc.c.Params, pc.doc)
			if errors.Is(err, diag.ErrShape) {
				return resultDiscarded
			}
			if v.Outcome != "" {
				pc.c.settle(&v)
			}
			if len(pc.c.Expect.check(v)) > 0 {
				return resultKilled
			}
		}
		return resultSurvived
	}
	return kill, slices.Clone(g.Fixtures)
}

// tally turns the results into the gate's report.
func (r *gateRun) tally() {
	rep := r.rep
	rep.Mutants = len(r.mutants)
	matched := make([]bool, len(r.decls))
	for i, m := range r.mutants {
		switch r.results[i] {
		case resultKilled:
			rep.Killed++
		case resultTimedOut:
			rep.Killed++
			rep.TimedOut++
		case resultDiscarded:
			rep.Discarded++
		}
		d := matchDecl(r.decls, m)
		if d >= 0 {
			matched[d] = true
			if r.results[i] == resultSurvived {
				rep.Equivalent++
				continue
			}
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: line %d %q is declared equivalent, but it was %s: remove the declaration",
				r.decls[d].file, r.decls[d].line, r.decls[d].mutant, r.results[i]))
		}
		if r.results[i] == resultSurvived {
			rep.Survived = append(rep.Survived, Survivor{File: r.g.PolicyFile, Line: m.Line, Operator: m.Operator,
				Original: m.Original, Mutant: m.Mutated, Fixtures: r.names})
		}
	}
	for i, ok := range matched {
		if !ok {
			d := r.decls[i]
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s:%d: the equivalent mutant %q at line %d matches no generated mutant: the policy changed; remove or update the declaration",
				d.file, d.at, d.mutant, d.line))
		}
	}
	rep.Score = score(rep.Killed, len(rep.Survived))
}

func (m mutantResult) String() string {
	switch m {
	case resultKilled:
		return "killed"
	case resultTimedOut:
		return "killed (timed out)"
	case resultDiscarded:
		return "discarded (it does not compile)"
	}
	return "survived"
}
