package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/engine/stdrunners"

	"github.com/tausik/tausik/engine/config"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/policies"
	"github.com/tausik/tausik/runners"
)

// newCodeRepo is a git repository (one commit) holding a god class in
// old.py (4 public names, over the project's cap of 3), a small class in
// new.py, and Sub in sub.py at the cap with one of its names from Base in
// base.py.
func newCodeRepo(t *testing.T) (root string, git func(args ...string)) {
	t.Helper()
	root = t.TempDir()
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	git = func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@example.test"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	writeFiles(t, root, map[string]string{
		"tausik/gates.json": `{"gates": {"class_surface": {"params": {"max_public_members": 3}}}}`,
		"old.py":            pyClass("God", "", "a", "b", "c", "d"),
		"new.py":            pyClass("Small", "", "run"),
		"base.py":           pyClass("Base", "", "one"),
		"sub.py":            "from base import Base\n\n" + pyClass("Sub", "Base", "two", "three"),
	})
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	return root, git
}

// pyClass is a Python class name(base) with a method per name.
func pyClass(name, base string, methods ...string) string {
	var b strings.Builder
	b.WriteString("class " + name)
	if base != "" {
		b.WriteString("(" + base + ")")
	}
	b.WriteString(":\n")
	for _, m := range methods {
		b.WriteString("    def " + m + "(self):\n        pass\n")
	}
	return b.String()
}

// projectEngine loads the built-in gates over root with its project config.
func projectEngine(t *testing.T, root string) *Engine {
	t.Helper()
	e, err := New(context.Background(), Deps{Root: root, Builtin: policies.FS, Runners: stdrunners.New(nil),
		Config: config.Paths{Project: filepath.Join(root, "tausik", "gates.json")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// surfaceVerdict evaluates class_surface alone for req and returns its
// verdict: the judged violations' files and the elsewhere ones'.
func surfaceVerdict(t *testing.T, e *Engine, req Request) (v Verdict, judged, elsewhere []string) {
	t.Helper()
	req.Trigger, req.Gates = "commit", []string{"class_surface"}
	dec, err := e.Evaluate(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	v = dec.Gates[0]
	for _, x := range v.Violations {
		switch x.State {
		case "":
			judged = append(judged, x.File)
		case StateElsewhere:
			elsewhere = append(elsewhere, x.File)
		default:
			t.Fatalf("violation %q has state %q", x.Msg, x.State)
		}
	}
	if dec.Blocked != (len(judged) > 0) {
		t.Fatalf("blocked=%v with judged violations %v", dec.Blocked, judged)
	}
	return v, judged, elsewhere
}

// A change is judged by what it touched: the god class in old.py blocks
// the whole tree and a change to old.py, not a change to new.py, where it
// is listed elsewhere; a name added to Base in base.py takes Sub in sub.py
// over the cap, and a change to base.py alone blocks on it.
func TestNewCodeJudgesWhatTheChangeTouched(t *testing.T) {
	root, git := newCodeRepo(t)
	e := projectEngine(t, root)
	check := func(what string, req Request, wantJudged, wantElsewhere []string) {
		t.Helper()
		v, judged, elsewhere := surfaceVerdict(t, e, req)
		if !slices.Equal(judged, wantJudged) || !slices.Equal(elsewhere, wantElsewhere) {
			t.Fatalf("%s: judged %v, elsewhere %v; want %v, %v", what, judged, elsewhere, wantJudged, wantElsewhere)
		}
		if want := map[bool]string{true: Failed, false: Passed}[len(wantJudged) > 0]; v.Outcome != want {
			t.Fatalf("%s: outcome %s, want %s", what, v.Outcome, want)
		}
	}
	check("whole tree", Request{}, []string{"old.py"}, nil)

	writeFiles(t, root, map[string]string{"new.py": pyClass("Small", "", "run", "stop")})
	check("new.py named", Request{Files: []string{"new.py"}}, nil, []string{"old.py"})
	check("new.py, absolute", Request{Files: []string{filepath.Join(root, "new.py")}}, nil, []string{"old.py"})
	check("changed since HEAD", Request{ChangedSince: "HEAD", ChangedFiles: true}, nil, []string{"old.py"})
	git("commit", "-q", "-am", "new.py grows")
	check("changed since HEAD~1", Request{ChangedSince: "HEAD~1", ChangedFiles: true}, nil, []string{"old.py"})
	check("nothing changed since HEAD", Request{ChangedSince: "HEAD", ChangedFiles: true}, nil, []string{"old.py"})
	check("whole tree again", Request{}, []string{"old.py"}, nil)

	check("old.py named", Request{Files: []string{"old.py"}}, []string{"old.py"}, nil)
	check("old.py among others", Request{Files: []string{"new.py", "old.py"}}, []string{"old.py"}, nil)

	// Deleting the god class's file, then writing it again under another
	// name: the rename is a change of both paths.
	git("mv", "old.py", "moved.py")
	check("renamed", Request{ChangedSince: "HEAD", ChangedFiles: true}, []string{"moved.py"}, nil)
	git("mv", "moved.py", "old.py")

	writeFiles(t, root, map[string]string{"base.py": pyClass("Base", "", "one", "four")})
	check("base.py named", Request{Files: []string{"base.py"}}, []string{"sub.py"}, []string{"old.py"})
	check("base.py changed since HEAD", Request{ChangedSince: "HEAD", ChangedFiles: true}, []string{"sub.py"}, []string{"old.py"})
	check("new.py named, base.py changed on disk", Request{Files: []string{"new.py"}}, nil, []string{"old.py", "sub.py"})
	check("whole tree, both", Request{}, []string{"old.py", "sub.py"}, nil)
	v, _, _ := surfaceVerdict(t, e, Request{Files: []string{"base.py"}})
	for _, x := range v.Violations {
		if x.File == "sub.py" && !slices.Equal(x.Sources, []string{"base.py"}) {
			t.Fatalf("Sub's sources = %v, want [base.py]", x.Sources)
		}
	}
}

// attributionEngine has two gates over the files namespace: "whole", with
// attribution: file, and "plain", without.
func attributionEngine(t *testing.T) *Engine {
	t.Helper()
	e, err := newTestEngine(t, t.TempDir(), map[string]string{
		"whole/gate.yaml":   gateYAML("whole", "rego", "attribution: file", paramsMaxLines),
		"whole/policy.rego": strings.Replace(regoBig, "gates.big", "gates.whole", 1),
		"plain/gate.yaml":   gateYAML("plain", "rego", paramsMaxLines),
		"plain/policy.rego": strings.Replace(regoBig, "gates.big", "gates.plain", 1),
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// Under a change, a gate with attribution: file keeps judged a violation
// in a changed file, one whose source is a changed file, and one with no
// file; every other goes elsewhere. A gate without it, and a request that
// is not about a change, judge every violation.
func TestAttributeByFileAndSources(t *testing.T) {
	e := attributionEngine(t)
	violations := func() []policy.Violation {
		return []policy.Violation{
			{Msg: "in a", File: "a.py"}, {Msg: "sourced from a", File: "b.py", Sources: []string{"z.py", "a.py"}},
			{Msg: "no file"}, {Msg: "in b", File: "b.py", Sources: []string{"c.py"}}, {Msg: "prefix", File: "a.py.orig"},
		}
	}
	dec := func() *Decision {
		return &Decision{Gates: []Verdict{
			{Name: "whole", Severity: gate.SeverityBlock, Outcome: Failed, Violations: violations()},
			{Name: "plain", Severity: gate.SeverityBlock, Outcome: Failed, Violations: violations()},
		}}
	}
	states := func(v Verdict) string {
		var out []string
		for _, x := range v.Violations {
			out = append(out, x.State)
		}
		return strings.Join(out, ",")
	}
	change := runners.NewScope(e.Root(), facts.Request{Explicit: true, Files: []string{"a.py", "d.py"}})
	d := dec()
	e.attribute(Request{}, change, d)
	if got := states(d.Gates[0]); got != ",,,elsewhere,elsewhere" {
		t.Fatalf("attribution: file under a change: states %q", got)
	}
	if got := states(d.Gates[1]); got != ",,,," {
		t.Fatalf("no attribution under a change: states %q", got)
	}
	nothing := runners.NewScope(e.Root(), facts.Request{Explicit: true, Files: []string{}})
	d = dec()
	e.attribute(Request{}, nothing, d)
	if got := states(d.Gates[0]); got != "elsewhere,elsewhere,,elsewhere,elsewhere" {
		t.Fatalf("a change of no file: states %q", got)
	}
	whole := runners.NewScope(e.Root(), facts.Request{Files: []string{}})
	d = dec()
	e.attribute(Request{}, whole, d)
	if got := states(d.Gates[0]); got != ",,,," {
		t.Fatalf("the whole tree: states %q", got)
	}
}

// An attribution gate.yaml does not know is a config error naming the
// file and line, not a gate that quietly judges everything.
func TestAttributionUnknownValue(t *testing.T) {
	_, err := newTestEngine(t, t.TempDir(), map[string]string{
		"odd/gate.yaml":   gateYAML("odd", "rego", "attribution: changed", paramsMaxLines),
		"odd/policy.rego": strings.Replace(regoBig, "gates.big", "gates.odd", 1),
	})
	if err == nil || !strings.Contains(err.Error(), `gate.yaml:10: unknown attribution "changed"`) {
		t.Fatalf("err = %v, want the unknown attribution at gate.yaml:10", err)
	}
}
