package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/stdrunners"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/policies"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/fs"
)

// stubRunner serves a fixed namespace and counts how often it was asked.
// It stands in for a source this machine does not have (a test-only
// namespace), never for a real tool's output.
type stubRunner struct {
	ns    string
	out   facts.Namespace
	calls atomic.Int32
	panic bool
}

func (s *stubRunner) Namespace() string { return s.ns }
func (s *stubRunner) Gather(context.Context, *runners.Scope) facts.Namespace {
	s.calls.Add(1)
	if s.panic {
		panic("boom")
	}
	return s.out
}

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func evalOne(t *testing.T, e *Engine, req Request) *Decision {
	t.Helper()
	d, err := e.Evaluate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestEvaluateOutcomesBothLanguages(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a.txt": "1\n2\n3\n4\n", "b.txt": "1\n"})
	for _, lang := range []string{"rego", "cel"} {
		t.Run(lang, func(t *testing.T) {
			pol := map[string]string{"rego": regoBig, "cel": celBig}[lang]
			file := map[string]string{"rego": "big/policy.rego", "cel": "big/policy.cel.yaml"}[lang]
			e, err := newTestEngine(t, root, map[string]string{"big/gate.yaml": gateYAML("big", lang, paramsMaxLines), file: pol})
			if err != nil {
				t.Fatal(err)
			}
			d := evalOne(t, e, Request{Trigger: "commit"})
			if len(d.Gates) != 1 || d.Gates[0].Outcome != Failed || !d.Blocked || d.ExitCode != ExitBlocked {
				t.Fatalf("decision = %+v", d)
			}
			if v := d.Gates[0].Violations; len(v) != 1 || v[0].File != "a.txt" || v[0].Msg != "a.txt is big" {
				t.Errorf("violations = %+v", v)
			}
			d = evalOne(t, e, Request{Trigger: "commit", Files: []string{"b.txt"}})
			if d.Gates[0].Outcome != Passed || d.Blocked || d.ExitCode != ExitPassed {
				t.Errorf("b.txt alone: %+v", d.Gates[0])
			}
		})
	}
}

// TestEvaluateFailsClosed: a PASSED over a namespace that could not be read
// becomes COULD_NOT_RUN, and blocks.
func TestEvaluateFailsClosed(t *testing.T) {
	stub := &stubRunner{ns: "weather", out: facts.Error("sensor offline")}
	pol := "package tausik.gates.sunny\n\nviolations contains {\"msg\": \"rain\"} if input.weather.rain\n"
	files := map[string]string{"sunny/gate.yaml": strings.Replace(gateYAML("sunny", "rego"), "facts: [files]", "facts: [weather]", 1), "sunny/policy.rego": pol}
	e, err := New(context.Background(), Deps{Root: t.TempDir(), Builtin: bundleFS(files), Runners: runners.NewRegistry(stub)})
	if err != nil {
		t.Fatal(err)
	}
	d := evalOne(t, e, Request{Trigger: "commit"})
	g := d.Gates[0]
	if g.Outcome != CouldNotRun || !g.Blocks || g.Reasons[0].Code != "fact_error:weather" || g.Reasons[0].Msg != "sensor offline" {
		t.Errorf("verdict = %+v", g)
	}
	stub.out, stub.panic = facts.OK(nil), true
	d = evalOne(t, e, Request{Trigger: "commit"})
	if g := d.Gates[0]; g.Outcome != CouldNotRun || !strings.Contains(g.Reasons[0].Msg, "panicked") {
		t.Errorf("panicking runner: %+v", g)
	}
}

// TestEvaluateRuntimeShapeError: a violation whose shape only shows at run
// time is a policy error, COULD_NOT_RUN naming file and rule, never a pass.
func TestEvaluateRuntimeShapeError(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a.txt": "1\n"})
	cases := map[string]map[string]string{
		"rego": {"bad/gate.yaml": gateYAML("bad", "rego"), "bad/policy.rego": "package tausik.gates.bad\n\nviolations contains {\"msg\": f.path, \"line\": f.path} if {\n\tsome f in input.files.files\n}\n"},
		"cel":  {"bad/gate.yaml": gateYAML("bad", "cel"), "bad/policy.cel.yaml": "violations:\n  - rule: r\n    expr: 'input.files.files.map(f, {\"msg\": f.lines})'\n"},
	}
	want := map[string]string{"rego": "policies/bad/policy.rego:3: violations: violation line must be a non-negative integer", "cel": "policies/bad/policy.cel.yaml:3: violations[0].expr: violation msg must be a non-empty string"}
	for lang, files := range cases {
		t.Run(lang, func(t *testing.T) {
			e, err := newTestEngine(t, root, files)
			if err != nil {
				t.Fatal(err)
			}
			g := evalOne(t, e, Request{Trigger: "commit"}).Gates[0]
			if g.Outcome != CouldNotRun || !g.Blocks || g.Reasons[0].Code != "policy_error" || !strings.Contains(g.Reasons[0].Msg, want[lang]) {
				t.Errorf("verdict = %+v, want policy_error containing %q", g, want[lang])
			}
		})
	}
}

// TestEvaluateAsksOnlyNeededRunners: a namespace no selected gate reads is not gathered.
func TestEvaluateAsksOnlyNeededRunners(t *testing.T) {
	stub := &stubRunner{ns: "weather", out: facts.OK(map[string]any{"rain": true})}
	files := map[string]string{
		"big/gate.yaml": gateYAML("big", "rego", paramsMaxLines), "big/policy.rego": regoBig,
		"sunny/gate.yaml":   strings.NewReplacer("facts: [files]", "facts: [weather]", "[commit]", "[verify]").Replace(gateYAML("sunny", "rego")),
		"sunny/policy.rego": "package tausik.gates.sunny\n\nviolations contains {\"msg\": \"rain\"} if input.weather.rain\n",
	}
	e, err := New(context.Background(), Deps{Root: t.TempDir(), Builtin: bundleFS(files), Runners: runners.NewRegistry(fs.New(), stub)})
	if err != nil {
		t.Fatal(err)
	}
	evalOne(t, e, Request{Trigger: "commit"})
	if n := stub.calls.Load(); n != 0 {
		t.Errorf("weather runner called %d times for a commit evaluation", n)
	}
	d := evalOne(t, e, Request{Trigger: "verify"})
	if n := stub.calls.Load(); n != 1 || d.Gates[0].Name != "sunny" || d.Gates[0].Outcome != Failed {
		t.Errorf("verify: calls=%d decision=%+v", n, d.Gates)
	}
}

// TestEvaluateDeterministic: results do not depend on the order files are named in.
func TestEvaluateDeterministic(t *testing.T) {
	root := t.TempDir()
	names := []string{"z.txt", "a.txt", "m/k.txt", "b.txt"}
	for _, n := range names {
		writeFiles(t, root, map[string]string{n: "1\n2\n3\n4\n5\n"})
	}
	fixed := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	e, err := newTestEngine(t, root, map[string]string{"big/gate.yaml": gateYAML("big", "cel", paramsMaxLines), "big/policy.cel.yaml": celBig},
		WithClock(func() time.Time { return fixed }))
	if err != nil {
		t.Fatal(err)
	}
	a := evalOne(t, e, Request{Trigger: "commit", Files: names})
	b := evalOne(t, e, Request{Trigger: "commit", Files: []string{"b.txt", "m/k.txt", "a.txt", "z.txt", "a.txt"}})
	if a.FactsDigest != b.FactsDigest {
		t.Errorf("facts digests differ: %s vs %s", a.FactsDigest, b.FactsDigest)
	}
	var got []string
	for _, v := range b.Gates[0].Violations {
		got = append(got, v.File)
	}
	if strings.Join(got, ",") != "a.txt,b.txt,m/k.txt,z.txt" {
		t.Errorf("violation order %v", got)
	}
}

func TestEvaluateSelection(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"src/a.py": "x = 1\n"})
	e := builtinEngine(t, root)
	for _, req := range []Request{{Trigger: "deploy"}, {Trigger: "commit", Gates: []string{"nope"}}} {
		if _, err := e.Evaluate(context.Background(), req); !errors.Is(err, diag.ErrUsage) {
			t.Errorf("%+v: err = %v, want ErrUsage", req, err)
		}
	}
	d := evalOne(t, e, Request{Trigger: "commit"})
	names := map[string]bool{}
	for _, g := range d.Gates {
		names[g.Name] = true
	}
	if !names["filesize"] || names["tdd_order"] || names["session_capacity"] {
		t.Errorf("commit selected %v: want filesize, and neither tdd_order (off) nor session_capacity (task-start only)", names)
	}
	d = evalOne(t, e, Request{Trigger: "commit", Gates: []string{"tdd_order"}, Files: []string{"src/a.py", "/elsewhere/x.py"}})
	if len(d.Gates) != 1 || d.Gates[0].Outcome != Failed || d.Gates[0].Blocks {
		t.Errorf("explicit disabled warn gate: %+v", d.Gates)
	}
	if len(d.Request.Outside) != 1 || d.Request.Outside[0] != "/elsewhere/x.py" || len(d.Request.Files) != 1 {
		t.Errorf("request = %+v", d.Request)
	}
}

type failingLog struct{}

func (failingLog) Append(context.Context, *Decision) error { return errors.New("disk full") }

func TestEvaluateLogFailureIsAnError(t *testing.T) {
	e, err := New(context.Background(), Deps{Root: t.TempDir(), Builtin: policies.FS, Runners: stdrunners.New(nil), Log: failingLog{}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.Evaluate(context.Background(), Request{Trigger: "commit"})
	if !errors.Is(err, diag.ErrStore) || d == nil || !strings.Contains(err.Error(), d.ID) {
		t.Fatalf("err = %v, decision = %v; want ErrStore naming the decision", err, d)
	}
}

// TestTDDOrderTestForms checks each naming form that makes a code file a test.
func TestTDDOrderTestForms(t *testing.T) {
	e := builtinEngine(t, t.TempDir())
	g, _ := e.Gate("tdd_order")
	forms := map[string]bool{
		"tests/test_app.py": true, "pkg/app_test.go": true, "web/app.test.ts": true, "web/app.spec.js": true,
		"web/__tests__/app.jsx": true, "test/App.java": true, "src/test_util.py": true, "spec/app_spec.rs": true,
		"src/contest.py": false, "latest/app.js": false, "src/testing.py": false, "attest/x.go": false,
	}
	for path, isTest := range forms {
		files := []facts.File{{Path: "src/main.py", Ext: ".py", Exists: true, Kind: "file"}, {Path: path, Ext: filepath.Ext(path), Exists: true, Kind: "file"}}
		doc := facts.NewDocument()
		doc.Set("files", facts.OK(facts.Files{Files: files}))
		plain, err := doc.Generic()
		if err != nil {
			t.Fatal(err)
		}
		eff, _ := e.Effective("tdd_order")
		v, _ := evalGate(context.Background(), g, g.Severity, eff.Params, policy.NewInput(plain, nil), doc)
		if got := v.Outcome == Passed; got != isTest {
			t.Errorf("%s: outcome %s, want a test file = %v", path, v.Outcome, isTest)
		}
	}
}

// TestPolicySeesOnlyDeclaredFacts: a gate reading a namespace it did not
// declare sees nothing there, so gate.yaml's facts list cannot lie.
func TestPolicySeesOnlyDeclaredFacts(t *testing.T) {
	stub := &stubRunner{ns: "weather", out: facts.OK(map[string]any{"rain": true})}
	files := map[string]string{
		"rainy/gate.yaml":        strings.Replace(gateYAML("rainy", "rego"), "facts: [files]", "facts: [weather]", 1),
		"rainy/policy.rego":      "package tausik.gates.rainy\n\nviolations contains {\"msg\": \"rain\"} if input.weather.rain\n",
		"sneaky/gate.yaml":       gateYAML("sneaky", "cel"),
		"sneaky/policy.cel.yaml": "violations:\n  - rule: r\n    expr: 'has(input.weather) ? [{\"msg\": \"saw the weather\"}] : []'\n",
	}
	e, err := New(context.Background(), Deps{Root: t.TempDir(), Builtin: bundleFS(files), Runners: runners.NewRegistry(fs.New(), stub)})
	if err != nil {
		t.Fatal(err)
	}
	d := evalOne(t, e, Request{Trigger: "commit"})
	got := map[string]string{}
	for _, g := range d.Gates {
		got[g.Name] = g.Outcome
	}
	if got["rainy"] != Failed || got["sneaky"] != Passed {
		t.Errorf("outcomes %v: rainy declared weather and must see it, sneaky did not and must not", got)
	}
}

// TestBuiltinsCompileEagerly backs LazyPolicy's promise: every built-in
// bundle compiles when loaded eagerly, so deferring it in Open hides nothing.
func TestBuiltinsCompileEagerly(t *testing.T) {
	e, err := New(context.Background(), Deps{Root: t.TempDir(), Builtin: policies.FS, Runners: stdrunners.New(nil)})
	if err != nil {
		t.Fatalf("a built-in bundle does not compile: %v", err)
	}
	for _, g := range e.Gates() {
		if _, lazy := g.Policy.(*gate.LazyPolicy); lazy && g.Source == gate.SourceBuiltin {
			t.Errorf("%s was not compiled eagerly", g.Name)
		}
	}
}
