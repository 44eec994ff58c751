package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tausik/tausik/internal/warmgo"

	"github.com/tausik/tausik/engine/commandgate"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/factplan"
	"github.com/tausik/tausik/engine/verdictcache"

	"github.com/tausik/tausik/engine/toolcall"
	"github.com/tausik/tausik/runners/git"

	"github.com/tausik/tausik/engine/internal/realpath"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// Evaluate judges req: it selects the gates, gathers the facts they need,
// evaluates each policy and returns the decision, after appending it to the
// decision log. A request naming an unknown trigger or gate fails with
// ErrUsage before anything runs. If the decision cannot be logged, Evaluate
// returns it together with an ErrStore error.
func (e *Engine) Evaluate(ctx context.Context, req Request) (*Decision, error) {
	start := time.Now()
	req, selected, err := e.prepare(ctx, req)
	if err != nil {
		return nil, err
	}
	now := e.now().UTC()
	scope := e.scope(req, now)
	var active []string
	if req.Tool != nil {
		// A hook's decision names the work it was made for.
		active = e.activeSlugs(ctx)
		scope.Request.Tasks = active
	}
	factplan.SetGlobs(scope, selected)
	factplan.SetOptions(scope, e.runners, selected, func(g *gate.Gate) map[string]any { return e.eff[g.Name].Params })
	var needs []string
	for _, g := range selected {
		needs = append(needs, g.NeedsAt(req.Trigger)...)
	}
	doc, gatherNS := e.gather(ctx, scope, needs)
	factsDone := time.Now()
	base := policy.NewDocumentInput(doc, nil)
	prefetchTerms(base, selected)
	digest, parts, err := doc.DigestParts()
	if err != nil {
		return nil, fmt.Errorf("facts digest: %w", err)
	}
	dec := e.newDecision(req, scope, now, digest, active)
	computed := e.evalGates(policy.WithLimits(ctx, e.Limits(req.Trigger)), selected, scope, base, doc, parts, dec)
	if err := e.judge(ctx, req, scope, dec); err != nil {
		return nil, err
	}
	settleDecision(dec, active)
	end := time.Now()
	dec.Timings = Timings{FactsNS: factsDone.Sub(start).Nanoseconds(), GatherNS: gatherNS, EvalNS: end.Sub(factsDone).Nanoseconds(), TotalNS: end.Sub(start).Nanoseconds()}
	if e.log != nil {
		if err := e.log.Append(ctx, dec); err != nil {
			return dec, fmt.Errorf("%w: record decision %s: %v", diag.ErrStore, dec.ID, err)
		}
		e.verdicts.Index(ctx, dec.ID, computed) // after the log: an entry names a decision on record
	}
	return dec, nil
}

// prepare completes req (its requester, its task's defaults, the changed
// files it asks for) and selects its gates, starting the compilation of
// the lazy ones.
func (e *Engine) prepare(ctx context.Context, req Request) (Request, []*gate.Gate, error) {
	if req.Requester == "" {
		req.Requester = e.requester
	}
	req = e.taskDefaults(ctx, req)
	selected, err := e.selectGates(req)
	if err != nil {
		return req, nil, err
	}
	// Each selected gate's policy is compiled by the time its verdict key is
	// made (reuse asks the compiled policy what it reads), and built-ins
	// compile lazily: start them now, beside the gathering, not after it.
	for _, g := range selected {
		if l, ok := g.Policy.(*gate.LazyPolicy); ok && !l.Compiled() {
			go l.InputUse()
		}
	}
	if req.ChangedFiles {
		if len(req.Files) > 0 {
			return req, nil, fmt.Errorf("%w: a request scoped to the changed files names no files of its own", diag.ErrUsage)
		}
		if req.Files, err = e.changedFiles(ctx, req.ChangedSince); err != nil {
			return req, nil, err
		}
	}
	return req, selected, nil
}

// newDecision is the decision on req before any gate is judged: what it
// was asked, over which facts and configuration.
func (e *Engine) newDecision(req Request, scope *runners.Scope, now time.Time, digest string, active []string) *Decision {
	return &Decision{
		Schema:    DecisionSchema,
		ID:        newID(now),
		Time:      now,
		Requester: req.Requester,
		Request: RequestRecord{Trigger: req.Trigger, Task: req.Task, Files: nonNil(scope.Request.Files),
			Explicit: scope.Request.Explicit, Outside: scope.Request.Outside, Gates: nonNil(req.Gates),
			ChangedSince: req.ChangedSince, Bypass: scope.Request.Bypass, Tool: e.recordTool(req.Tool), Tasks: active, Turn: req.Turn},
		GitHead:      runners.GitHead(e.root),
		FactsDigest:  digest,
		ConfigDigest: e.configDigest,
		Tiers:        slices.Clone(e.tiers),
		Programs:     e.programs,
		Gates:        []Verdict{},
		Warnings:     nonNil(e.ConfigWarnings()),
	}
}

// evalGates appends to dec each selected gate's verdict: reused when the
// verdict cache has one for the same input, else evaluated under the
// limits ctx carries. It returns the verdict keys computed anew.
func (e *Engine) evalGates(ctx context.Context, selected []*gate.Gate, scope *runners.Scope, base *policy.Input, doc *facts.Document, parts map[string]string, dec *Decision) []string {
	keys, hits := e.reuse(ctx, selected, func(g *gate.Gate) map[string]any { return e.eff[g.Name].Params }, parts)
	var computed []string
	for _, g := range selected {
		eff := e.eff[g.Name]
		v, ok := hits[g.Name]
		if r := factplan.ParamsConflict(scope, e.runners, g, eff.Params); r != nil {
			v = verdictOf(g, eff.Severity, policy.Result{CouldNotRun: []policy.Reason{*r}}, nil, doc)
		} else if ok {
			// The outcome is the input's; severity and blocking are today's config.
			settleSeverity(&v, eff.Severity)
			v.EvalNS = 0
		} else {
			var perr error
			v, perr = evalGate(ctx, g, eff.Severity, eff.Params, base, doc)
			// Only a policy that read nothing the digest leaves out has its
			// result named by it, and reusable by a later evaluation.
			if k := keys[g.Name]; k != "" && perr == nil && verdictcache.Reusable(g) {
				v.InputDigest = k
				computed = append(computed, k)
			}
		}
		dec.Gates = append(dec.Gates, v)
	}
	return computed
}

// settleDecision sets what follows from the judged verdicts: whether a
// person may be asked, the exit code, and the one active task a hook's
// decision names.
func settleDecision(dec *Decision, active []string) {
	dec.Ask = dec.Blocked
	for _, v := range dec.Gates {
		dec.Ask = dec.Ask && (!v.Blocks || v.Ask)
	}
	if dec.Blocked {
		dec.ExitCode = ExitBlocked
	}
	if dec.Request.Task == "" && len(active) == 1 {
		dec.Request.Task = active[0]
	}
}

// prefetchTerms converts the namespaces the selected Rego gates read to
// Rego terms on another goroutine, while the facts digest is computed and
// the verdicts are looked up on this one: an evaluated policy needs both,
// neither needs the other (on the standard library's class_surface, 15 ms
// of terms beside 9 ms of digest). A gate whose verdict is then reused
// leaves its terms unread, work done on an otherwise idle core; nothing
// waits for it.
func prefetchTerms(base *policy.Input, selected []*gate.Gate) {
	names := prefetchNames(selected)
	if len(names) == 0 {
		return
	}
	warmgo.Go(func() {
		for _, ns := range names {
			base.Prefetch(ns)
		}
	})
}

// prefetchNames lists the namespaces prefetchTerms converts: those the
// selected Rego gates declare, each once, but the glob namespaces, which a
// gate with globs sees through a view of its own made at evaluation.
func prefetchNames(selected []*gate.Gate) []string {
	var names []string
	for _, g := range selected {
		if g.Language != gate.LangRego {
			continue
		}
		for _, ns := range g.Facts {
			if !slices.Contains(factplan.GlobNamespaces, ns) && !slices.Contains(names, ns) {
				names = append(names, ns)
			}
		}
	}
	return names
}

// evalGate evaluates one gate with severity and params against the shared
// input, and returns its verdict and the policy's error, if any.
func evalGate(ctx context.Context, g *gate.Gate, severity string, params map[string]any, base *policy.Input, doc *facts.Document) (Verdict, error) {
	t0 := time.Now()
	res, err := policy.EvalBounded(ctx, g.Policy, base.ForGate(g.Facts, params).WithViews(factplan.GateViews(g, doc)))
	v := verdictOf(g, severity, res, err, doc)
	v.EvalNS = time.Since(t0).Nanoseconds()
	return v, err
}

// verdictOf is g's verdict given its policy's result or error and the
// status of the namespaces it read.
func verdictOf(g *gate.Gate, severity string, res policy.Result, err error, doc *facts.Document) Verdict {
	var unread []policy.Reason
	for _, ns := range g.Facts {
		// A namespace missing was not gathered: the gate does not read it
		// at this trigger (gate.yaml facts_at).
		if st, ok := doc.Namespaces[ns]; ok && st.Status != facts.StatusOK {
			unread = append(unread, policy.Reason{Code: "fact_" + string(st.Status) + ":" + ns, Msg: st.Reason})
		}
	}
	out, reasons := outcome(res, err, unread)
	v := Verdict{
		Name: g.Name, Source: g.Source, Language: g.Language,
		Outcome: out, Reasons: nonNil(reasons),
		Violations: []policy.Violation{}, PolicyDigest: g.PolicyDigest,
	}
	if out == Failed {
		v.Violations = res.Violations
	}
	settleSeverity(&v, severity)
	return v
}

// selectGates picks the gates for req in evaluation order.
func (e *Engine) selectGates(req Request) ([]*gate.Gate, error) {
	if err := checkTrigger(req.Trigger); err != nil {
		return nil, err
	}
	var out []*gate.Gate
	if len(req.Gates) > 0 {
		for _, name := range req.Gates {
			if _, ok := e.byName[name]; !ok {
				return nil, fmt.Errorf("%w: unknown gate %q (see `tausik policy list`)", diag.ErrUsage, name)
			}
		}
		for _, g := range e.gates {
			if slices.Contains(req.Gates, g.Name) {
				out = append(out, g)
			}
		}
		return out, nil
	}
	for _, g := range e.gates {
		eff := e.eff[g.Name]
		if eff.Enabled && slices.Contains(eff.Triggers, req.Trigger) {
			out = append(out, g)
		}
	}
	return out, nil
}

// checkTrigger refuses a trigger that is not one of Triggers (ErrUsage).
func checkTrigger(trigger string) error {
	if !slices.Contains(gate.Triggers, trigger) {
		return fmt.Errorf("%w: unknown trigger %q (known: %s)", diag.ErrUsage, trigger, strings.Join(gate.Triggers, ", "))
	}
	return nil
}

// scope resolves the request's files against the root.
func (e *Engine) scope(req Request, now time.Time) *runners.Scope {
	r := facts.Request{Trigger: req.Trigger, Task: req.Task, Requester: req.Requester, Files: []string{}, Outside: []string{},
		ChangedSince: req.ChangedSince, Time: now.Format(time.RFC3339Nano), Bypass: nonNil(slices.Sorted(slices.Values(req.Bypass)))}
	if len(req.Files) > 0 || req.ChangedFiles {
		r.Explicit = true
		for _, f := range req.Files {
			if rel, ok := Relative(e.root, f); ok {
				r.Files = append(r.Files, rel)
			} else {
				r.Outside = append(r.Outside, f)
			}
		}
		sort.Strings(r.Files)
		r.Files = slices.Compact(r.Files)
	}
	if req.Tool != nil {
		// A tool call names what it writes, even when that is nothing known.
		r.Explicit = true
		r.UnknownWrites = req.Tool.Unknown
		r.Commands = req.Tool.Commands
	}
	r.Protected = e.protectedTargets(req)
	s := runners.NewScope(e.root, r)
	s.UseListing(req.Listing)
	if req.Tool != nil {
		s.Tool, s.After = toolcall.Namespace(req.Tool, r.Files, func(p string) (string, bool) { return Relative(e.root, p) })
	}
	s.Work = e.workContext(req)
	return s
}

// Relative returns p (absolute, or relative to root) as a clean "/"-separated
// path relative to root, after resolving "..", doubled slashes and every
// symlink on the way, including a symlinked file itself: the result is where
// a write to p would land. A path that does not exist yet (a pre-write check)
// is resolved through its longest existing ancestor. ok is false when the
// resolved path lies outside root.
func Relative(root, p string) (string, bool) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	rel, err := filepath.Rel(root, realpath.Resolve(filepath.Clean(p)))
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// gather runs the runners for the needed namespaces concurrently, and says
// how long each took. A runner that panics yields an error namespace, never a
// missing one.
func (e *Engine) gather(ctx context.Context, scope *runners.Scope, needs []string) (*facts.Document, map[string]int64) {
	doc := facts.NewDocument()
	took := map[string]int64{}
	doc.Set(NamespaceRequest, facts.OK(scope.Request))
	var mu sync.Mutex
	var wg sync.WaitGroup
	seen := map[string]bool{NamespaceRequest: true}
	for _, ns := range commandgate.StacksFirst(ctx, e.runners, gatherSafely, scope, needs, doc, took) {
		seen[ns] = true
	}
	type job struct {
		ns string
		r  runners.Runner
	}
	var todo []job
	for _, ns := range needs {
		if seen[ns] {
			continue
		}
		seen[ns] = true
		r, ok := e.runners.Get(ns)
		if !ok {
			doc.Set(ns, facts.Error("no runner provides this namespace"))
			continue
		}
		todo = append(todo, job{ns, r})
	}
	run := func(j job) {
		t0 := time.Now()
		got := gatherSafely(ctx, j.r, scope)
		mu.Lock()
		doc.Set(j.ns, got)
		took[j.ns] = time.Since(t0).Nanoseconds()
		mu.Unlock()
	}
	// The last runner runs on this goroutine, which would only wait.
	for i, j := range todo {
		if i == len(todo)-1 {
			run(j)
		} else {
			wg.Add(1)
			warmgo.Go(func() { defer wg.Done(); run(j) })
		}
	}
	wg.Wait()
	return doc, took
}

func gatherSafely(ctx context.Context, r runners.Runner, s *runners.Scope) (ns facts.Namespace) {
	defer func() {
		if p := recover(); p != nil {
			ns = facts.Error(fmt.Sprintf("runner %s panicked: %v", r.Namespace(), p))
		}
	}()
	ns = r.Gather(ctx, s)
	if !ns.Status.Valid() {
		return facts.Error(fmt.Sprintf("runner %s returned status %q", r.Namespace(), ns.Status))
	}
	return ns
}

// Facts gathers the named namespaces for req, as `tausik facts` prints them;
// when names is empty, every namespace the registry knows except the command
// gates', whose runners run tools.
func (e *Engine) Facts(ctx context.Context, req Request, names []string) (*facts.Document, error) {
	if err := checkTrigger(req.Trigger); err != nil {
		return nil, err
	}
	for _, n := range names {
		if _, ok := e.runners.Get(n); !ok && n != NamespaceRequest {
			return nil, fmt.Errorf("%w: unknown namespace %q (known: %s)", diag.ErrUsage, n, strings.Join(e.Namespaces(), ", "))
		}
	}
	if len(names) == 0 {
		// A command gate's namespace runs its tool (a test suite, a
		// linter): only when asked for by name.
		for _, n := range e.Namespaces() {
			if !e.cmds.Is(n) {
				names = append(names, n)
			}
		}
	}
	scope := e.scope(req, e.now().UTC())
	factplan.SetGlobs(scope, e.gates) // every gate's files: what any of them would read
	factplan.SetOptions(scope, e.runners, e.gates, func(g *gate.Gate) map[string]any { return e.eff[g.Name].Params })
	doc, _ := e.gather(ctx, scope, names)
	return doc, nil
}

// Namespaces lists the facts namespaces this engine can gather, sorted.
func (e *Engine) Namespaces() []string {
	return append([]string{NamespaceRequest}, e.runners.Namespaces()...)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// changedFiles lists the files changed since ref for a request whose scope
// is "what changed" (Request.ChangedFiles). A ref git cannot use, or a
// project that is not a git work tree, is a usage error naming the ref.
func (e *Engine) changedFiles(ctx context.Context, ref string) ([]string, error) {
	files, err := git.New().ChangedFiles(ctx, e.root, ref)
	switch {
	case errors.Is(err, git.ErrBadSince):
		return nil, fmt.Errorf("%w: --changed-since %q: %v", diag.ErrUsage, ref, err)
	case errors.Is(err, git.ErrNotRepo):
		return nil, fmt.Errorf("%w: --changed-since %q: %s is not in a git work tree", diag.ErrUsage, ref, e.root)
	case err != nil:
		return nil, fmt.Errorf("files changed since %q: %w", ref, err)
	}
	if files == nil {
		files = []string{}
	}
	return files, nil
}
