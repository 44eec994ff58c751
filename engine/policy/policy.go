package policy

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/facts"
)

// NamespaceRequest is the input key of the request being judged (its trigger,
// task and files), beside the runners' namespaces.
const NamespaceRequest = "request"

// Severities a gate can have. "block" blocks; "ask" blocks too, except
// where the host can ask a person, who may let the call through; "warn"
// never blocks. A violation may carry "ask" or "block" of its own.
const (
	SeverityBlock = "block"
	SeverityAsk   = "ask"
	SeverityWarn  = "warn"
)

// Policy is a gate's prepared policy, in Rego or CEL. It is compiled once per
// process and evaluated many times; Eval is safe for concurrent use.
//
// Eval returns the policy's verdict on in. A non-nil error means the policy
// itself failed (a runtime error, a result of the wrong shape, a cancelled
// context); the engine turns it into COULD_NOT_RUN, never into a pass. A nil
// error with an empty Result means the policy found nothing to object to.
type Policy interface {
	Eval(ctx context.Context, in *Input) (Result, error)
}

// Result is what a policy returns: violations, and reason codes for "nothing to
// judge" (NotApplicable) and "could not judge" (CouldNotRun).
type Result struct {
	Violations    []Violation `json:"violations"`
	NotApplicable []Reason    `json:"not_applicable"`
	CouldNotRun   []Reason    `json:"could_not_run"`
}

// Violation is one thing a gate objects to. Msg names the remedy when the gate
// blocks; File and Line locate it when it has a place.
type Violation struct {
	Msg  string `json:"msg"`
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	Rule string `json:"rule,omitempty"`
	// Detector, Kind and Ref are a finding's shape (docs/renar.md): which check found it, which kind of problem it is and
	// the artifact or task it is about. Optional for every other gate.
	Detector string `json:"detector,omitempty"`
	Kind     string `json:"kind,omitempty"`
	Ref      string `json:"ref,omitempty"`
	// Severity "ask" marks a violation a person may let through where the
	// host can ask one (see Verdict.Ask); "block" makes it block whatever
	// the gate's severity (a param may ask for that: policies may only
	// tighten); empty: the gate's own severity.
	Severity string `json:"severity,omitempty"`
	// Key, Quantity and Sources let the engine judge a violation against a
	// baseline and a change (the engine's judge.go): Key names what the violation is
	// about, stable across unrelated edits (a class, a file; never a line
	// number); Quantity is what it measures and may not grow (a file's
	// lines, a class's public names); Sources are the files other than File
	// whose change alters it (the files of a class's bases).
	Key      string   `json:"key,omitempty"`
	Quantity int      `json:"quantity,omitempty"`
	Sources  []string `json:"sources,omitempty"`
	// State is set by the engine, never by a policy: "" for a violation
	// judged here, StateBaselined or StateElsewhere for one that does not
	// block this request.
	State string `json:"state,omitempty"`
}

// Reason is a machine-readable code with an optional human message.
type Reason struct {
	Code string `json:"code"`
	Msg  string `json:"msg,omitempty"`
}

// Compiled on first use, not at every process start (docs/performance.md).
var reasonCodeRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_]*(:[A-Za-z0-9_.\-/]+)?$`) })

// ValidReasonCode reports whether code is one a policy may give (a fixture
// that expects any other code could never pass).
func ValidReasonCode(code string) bool { return reasonCodeRE().MatchString(code) }

// Input is the document one gate's policy sees: the namespaces the gate
// declared in gate.yaml (plus "request" and "schema") and the gate's resolved
// params under "params". A policy cannot read a namespace it did not declare,
// so a gate's facts list is the truth about what it depends on. The facts are
// shared by every gate of an evaluation and converted to each language's
// values at most once.
type Input struct {
	facts *sharedFacts
	// own holds the gate's own view of namespaces it sees only in part
	// (content and documents hold the files of its globs); nil for none.
	own    *sharedFacts
	names  []string // namespaces visible to the gate; nil = all
	Params map[string]any
}

// sharedFacts is the facts part of an Input with its converted forms: each
// namespace becomes plain values, then Rego terms, at most once, and only
// when a policy reads it (a verdict reused from the log reads nothing).
type sharedFacts struct {
	mu    sync.Mutex
	doc   *facts.Document // converted on demand; nil when plain holds it all
	plain map[string]any
	rego  map[string]*termOnce
}

// termOnce is one namespace's conversion to a Rego term, made once: the
// conversion of one namespace does not hold up another's, or a plain
// reading (prefetchTerms converts beside the policies).
type termOnce struct {
	once sync.Once
	term *ast.Term // nil when the document has no such namespace
	err  error
}

// NewInput returns an input over the plain facts document doc (see
// facts.Document.Generic) that shows every namespace, with params.
func NewInput(doc map[string]any, params map[string]any) *Input {
	return &Input{facts: &sharedFacts{plain: doc, rego: map[string]*termOnce{}}, Params: params}
}

// NewDocumentInput returns an input over doc that shows every namespace,
// with params, converting a namespace to plain values when a policy first
// reads it.
func NewDocumentInput(doc *facts.Document, params map[string]any) *Input {
	return &Input{facts: &sharedFacts{doc: doc, plain: map[string]any{"schema": facts.Schema}, rego: map[string]*termOnce{}}, Params: params}
}

// ForGate returns an input sharing in's facts that shows only the named
// namespaces (plus request and schema), with params.
func (in *Input) ForGate(namespaces []string, params map[string]any) *Input {
	names := append([]string{"schema", NamespaceRequest}, namespaces...)
	sort.Strings(names)
	return &Input{facts: in.facts, names: slices.Compact(names), Params: params}
}

// WithViews returns in showing views in place of the shared namespaces of
// the same names: a gate's own part of a namespace.
func (in *Input) WithViews(views map[string]facts.Namespace) *Input {
	if len(views) == 0 {
		return in
	}
	doc := facts.NewDocument()
	for k, ns := range views {
		doc.Set(k, ns)
	}
	out := *in
	out.own = &sharedFacts{doc: doc, plain: map[string]any{}, rego: map[string]*termOnce{}}
	return &out
}

// source is where namespace k comes from: the gate's own view, else the
// shared facts.
func (in *Input) source(k string) *sharedFacts {
	if in.own != nil {
		if _, ok := in.own.doc.Namespaces[k]; ok {
			return in.own
		}
	}
	return in.facts
}

// visible lists the namespaces the input shows, sorted.
func (in *Input) visible() []string {
	switch {
	case in.names != nil:
		return in.names
	case in.facts.doc != nil:
		return slices.Sorted(slices.Values(append(in.facts.doc.Names(), "schema")))
	}
	return slices.Sorted(maps.Keys(in.facts.plain))
}

// value returns namespace k as plain values, converting it once; ok is false
// when the document has no k. The caller holds f.mu.
func (f *sharedFacts) value(k string) (any, bool, error) {
	if v, ok := f.plain[k]; ok {
		return v, true, nil
	}
	if f.doc == nil {
		return nil, false, nil
	}
	ns, ok := f.doc.Namespaces[k]
	if !ok {
		return nil, false, nil
	}
	v, err := ns.Generic()
	if err != nil {
		return nil, false, fmt.Errorf("facts namespace %s: %w", k, err)
	}
	f.plain[k] = v
	return v, true, nil
}

// RegoTerms converts the visible namespaces to Rego terms, each at most once
// per evaluation.
func (in *Input) RegoTerms() ([][2]*ast.Term, error) {
	var out [][2]*ast.Term
	for _, k := range in.visible() {
		t, err := in.source(k).term(k)
		if err != nil {
			return nil, err
		}
		if t != nil {
			out = append(out, [2]*ast.Term{ast.StringTerm(k), t})
		}
	}
	return out, nil
}

// term returns namespace k as a Rego term, converting it once; nil when the
// document has no k.
func (f *sharedFacts) term(k string) (*ast.Term, error) {
	f.mu.Lock()
	c := f.rego[k]
	if c == nil {
		c = &termOnce{}
		f.rego[k] = c
	}
	f.mu.Unlock()
	c.once.Do(func() { c.term, c.err = f.convert(k) })
	return c.term, c.err
}

// convert is namespace k as a Rego term: built from the typed facts where
// that is known to give the same term (surfaceTerm), else from the plain
// values.
func (f *sharedFacts) convert(k string) (*ast.Term, error) {
	f.mu.Lock()
	_, plain := f.plain[k]
	f.mu.Unlock()
	if !plain && f.doc != nil {
		if t, ok := surfaceTerm(f.doc.Namespaces[k]); ok {
			return t, nil
		}
	}
	f.mu.Lock()
	v, present, err := f.value(k)
	f.mu.Unlock()
	if err != nil || !present {
		return nil, err
	}
	val, err := ast.InterfaceToValue(v)
	if err != nil {
		return nil, fmt.Errorf("facts namespace %s: %w", k, err)
	}
	return ast.NewTerm(val), nil
}

// Prefetch converts namespace ns of in's facts to its Rego term ahead of an
// evaluation that reads it; an error comes back to the policy that reads ns.
func (in *Input) Prefetch(ns string) { _, _ = in.facts.term(ns) }

// Plain returns the input as one plain map (visible facts plus "params").
func (in *Input) Plain() (map[string]any, error) {
	names := in.visible()
	m := make(map[string]any, len(names)+1)
	for _, k := range names {
		f := in.source(k)
		f.mu.Lock()
		v, ok, err := f.value(k)
		f.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if ok {
			m[k] = v
		}
	}
	m["params"] = in.Params
	return m, nil
}

// shapeError is a policy result of the wrong shape, located at the rule or
// expression that produced it.
type shapeError struct {
	where string
	msg   string
}

func (e *shapeError) Error() string { return e.where + ": " + e.msg }

// Is makes a shapeError match ErrShape.
func (e *shapeError) Is(target error) bool { return target == diag.ErrShape }

// violationKeys are the keys a violation may have.
const violationKeys = "msg, file, line, rule, detector, kind, ref, key, quantity, sources, severity"

// toViolation checks one plain violation value.
func toViolation(v any) (Violation, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return Violation{}, fmt.Errorf("a violation must be an object {msg, file?, line?, rule?}, got %s", diag.Describe(v))
	}
	var out Violation
	for k, e := range m {
		switch k {
		case "msg":
			s, ok := e.(string)
			if !ok || s == "" {
				return out, fmt.Errorf("violation msg must be a non-empty string, got %s", diag.Describe(e))
			}
			out.Msg = s
		case "file":
			s, ok := e.(string)
			if !ok {
				return out, fmt.Errorf("violation file must be a string, got %s", diag.Describe(e))
			}
			out.File = s
		case "line":
			n, ok := asInt(e)
			if !ok || n < 0 {
				return out, fmt.Errorf("violation line must be a non-negative integer, got %s", diag.Describe(e))
			}
			out.Line = n
		case "quantity":
			n, ok := asInt(e)
			if !ok || n < 0 {
				return out, fmt.Errorf("violation quantity must be a non-negative integer, got %s", diag.Describe(e))
			}
			out.Quantity = n
		case "sources":
			if e == nil {
				continue // null: a fact's list a runner left out; no sources
			}
			list, ok := e.([]any)
			if !ok {
				return out, fmt.Errorf("violation sources must be a list of file paths, got %s", diag.Describe(e))
			}
			out.Sources = make([]string, len(list))
			for i, x := range list {
				if out.Sources[i], ok = x.(string); !ok {
					return out, fmt.Errorf("violation sources must be a list of file paths, got %s", diag.Describe(e))
				}
			}
		case "rule", "detector", "kind", "ref", "key":
			s, ok := e.(string)
			if !ok {
				return out, fmt.Errorf("violation %s must be a string, got %s", k, diag.Describe(e))
			}
			switch k {
			case "rule":
				out.Rule = s
			case "detector":
				out.Detector = s
			case "kind":
				out.Kind = s
			case "key":
				out.Key = s
			default:
				out.Ref = s
			}
		case "severity":
			s, ok := e.(string)
			if !ok || s != SeverityAsk && s != SeverityBlock {
				return out, fmt.Errorf("violation severity must be %q or %q, got %s", SeverityAsk, SeverityBlock, diag.Describe(e))
			}
			out.Severity = s
		default:
			return out, fmt.Errorf("violation has unknown key %q (known: %s)", k, violationKeys)
		}
	}
	if out.Msg == "" {
		return out, fmt.Errorf("a violation needs a msg")
	}
	return out, nil
}

// toReason checks one plain reason value: a code string or {code, msg}.
func toReason(v any) (Reason, error) {
	var r Reason
	switch x := v.(type) {
	case string:
		r.Code = x
	case map[string]any:
		for k, e := range x {
			s, ok := e.(string)
			switch {
			case !ok:
				return r, fmt.Errorf("reason %s must be a string, got %s", k, diag.Describe(e))
			case k == "code":
				r.Code = s
			case k == "msg":
				r.Msg = s
			default:
				return r, fmt.Errorf("reason has unknown key %q (known: code, msg)", k)
			}
		}
	default:
		return r, fmt.Errorf("a reason must be a code string or {code, msg}, got %s", diag.Describe(v))
	}
	if !reasonCodeRE().MatchString(r.Code) {
		return r, fmt.Errorf("reason code %q must match %s", r.Code, reasonCodeRE())
	}
	return r, nil
}

func asInt(v any) (int, bool) {
	switch x := v.(type) {
	case int64:
		return int(x), true
	case int:
		return x, true
	case float64:
		if x == float64(int(x)) {
			return int(x), true
		}
	}
	return 0, false
}

// sortResult orders violations and reasons so results never depend on the
// order in which a policy engine happened to produce them, and makes empty
// lists non-nil so both languages render the same.
func sortResult(r *Result) {
	r.Violations, r.NotApplicable, r.CouldNotRun = nonNil(r.Violations), nonNil(r.NotApplicable), nonNil(r.CouldNotRun)
	sort.Slice(r.Violations, func(i, j int) bool {
		a, b := r.Violations[i], r.Violations[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		if a.Ref != b.Ref {
			return a.Ref < b.Ref
		}
		return a.Msg < b.Msg
	})
	for _, rs := range [][]Reason{r.NotApplicable, r.CouldNotRun} {
		sort.Slice(rs, func(i, j int) bool {
			if rs[i].Code != rs[j].Code {
				return rs[i].Code < rs[j].Code
			}
			return rs[i].Msg < rs[j].Msg
		})
	}
}

// nonNil returns s, or an empty slice for nil, so JSON shows [] not null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
