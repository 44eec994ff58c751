package engine

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/commandgate"

	"github.com/tausik/tausik/engine/stdrunners"

	"github.com/tausik/tausik/engine/config"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/policies"
	"github.com/tausik/tausik/runners/command"
)

// stackCase is a project that breaks one tool's rules, and the markers
// that each say the project uses the tool.
type stackCase struct {
	gate, tool string            // tool: the executable that must be on PATH
	source     map[string]string // files with a finding of the tool
	markers    map[string]map[string]string
}

var stackCases = []stackCase{
	{"ruff", "ruff", map[string]string{"pkg/app.py": "import os\n"}, map[string]map[string]string{
		"[tool.ruff]":        {"pyproject.toml": "[tool.ruff]\n"},
		"ruff.toml":          {"ruff.toml": ""},
		".ruff.toml":         {".ruff.toml": ""},
		"optional deps":      {"pyproject.toml": "[project]\nname = 'x'\nversion = '1'\n[project.optional-dependencies]\ndev = ['ruff>=0.5']\n"},
		"dependency-groups":  {"pyproject.toml": "[dependency-groups]\nlint = ['ruff']\n"},
		"poetry dev group":   {"pyproject.toml": "[tool.poetry.group.dev.dependencies]\nruff = '^0.6'\n"},
		"requirements-dev":   {"requirements-dev.txt": "ruff==0.6.9\n"},
		"pre-commit hook":    {".pre-commit-config.yaml": "repos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: v0.6.9\n  hooks:\n  - id: ruff\n"},
		"marker in a subdir": {"pkg/ruff.toml": ""},
	}},
	{"mypy", "mypy", map[string]string{"typed.py": "def f(x: int) -> str:\n    return x\n"}, map[string]map[string]string{
		"[tool.mypy]":      {"pyproject.toml": "[tool.mypy]\n"},
		"mypy.ini":         {"mypy.ini": "[mypy]\n"},
		".mypy.ini":        {".mypy.ini": "[mypy]\n"},
		"setup.cfg [mypy]": {"setup.cfg": "[mypy]\n"},
	}},
	{"bandit", "bandit", map[string]string{"run.py": "import subprocess\n\nsubprocess.call('ls', shell=True)\n"}, map[string]map[string]string{
		"[tool.bandit]": {"pyproject.toml": "[tool.bandit]\n"},
		".bandit":       {".bandit": "[bandit]\n"},
	}},
	// calc_test.py is collected by pytest but is no marker: only test_*.py
	// under tests/ is.
	{"pytest", "/usr/bin/python3", map[string]string{"calc_test.py": "def test_add():\n    assert 2 + 2 == 5\n"}, map[string]map[string]string{
		"[tool.pytest.ini_options]": {"pyproject.toml": "[tool.pytest.ini_options]\n"},
		"pytest.ini":                {"pytest.ini": "[pytest]\n"},
		"conftest.py":               {"conftest.py": ""},
		"tests/test_*.py":           {"tests/test_more.py": "def test_more():\n    assert True\n"},
		"tox.ini [pytest]":          {"tox.ini": "[pytest]\n"},
		"setup.cfg [tool:pytest]":   {"setup.cfg": "[tool:pytest]\n"},
	}},
	{"go_vet", "go", map[string]string{"vet.go": "package vet\n\nfunc Same(x int) int {\n\tx = x\n\treturn x\n}\n"}, map[string]map[string]string{
		"go.mod": {"go.mod": "module example.test/vet\n\ngo 1.22\n"},
	}},
	{"go_test", "go", map[string]string{"calc_test.go": "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) { t.Fatal(\"2+2\") }\n"}, map[string]map[string]string{
		"go.mod": {"go.mod": "module example.test/calc\n\ngo 1.22\n"},
	}},
}

// judge evaluates gate alone over a fresh project holding files.
func judge(t *testing.T, gate string, files map[string]string) Verdict {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, files)
	e := builtinEngine(t, root)
	dec, err := e.Evaluate(context.Background(), Request{Trigger: "verify", Gates: []string{gate}})
	if err != nil {
		t.Fatal(err)
	}
	return dec.Gates[0]
}

// TestCommandGatesFollowMarkers runs each command gate's real tool over a
// project with a finding: without any marker of the tool the gate is
// NOT_APPLICABLE with the hint (the tool is not run), with each marker
// alone it runs and fails.
func TestCommandGatesFollowMarkers(t *testing.T) {
	t.Setenv(command.PythonEnv, "/usr/bin/python3")
	for _, c := range stackCases {
		t.Run(c.gate, func(t *testing.T) {
			if _, err := exec.LookPath(c.tool); err != nil {
				t.Fatalf("%s is not on PATH (see CONTRIBUTING.md for the tools the tests need): %v", c.tool, err)
			}
			v := judge(t, c.gate, c.source)
			if v.Outcome != NotApplicable || len(v.Reasons) != 1 || v.Reasons[0].Code != commandgate.ReasonNotUsed ||
				!strings.HasPrefix(v.Reasons[0].Msg, c.gate+": this project shows no sign of using") {
				t.Fatalf("without a marker: %s %+v, want NOT_APPLICABLE not_used", v.Outcome, v.Reasons)
			}
			for name, marker := range c.markers {
				files := map[string]string{}
				for p, s := range c.source {
					files[p] = s
				}
				for p, s := range marker {
					files[p] = s
				}
				if v := judge(t, c.gate, files); v.Outcome != Failed {
					t.Errorf("with %s: %s %+v, want FAILED", name, v.Outcome, v.Reasons)
				}
			}
		})
	}
}

// TestUnusedToolIsNotRun: with no tool on PATH, a project that does not
// use ruff is NOT_APPLICABLE (had the engine run ruff, it would be
// COULD_NOT_RUN, not found), and one that does is COULD_NOT_RUN with the
// install hint: a used tool's absence fails closed.
func TestUnusedToolIsNotRun(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if v := judge(t, "ruff", map[string]string{"a.py": "import os\n"}); v.Outcome != NotApplicable || v.Reasons[0].Code != commandgate.ReasonNotUsed {
		t.Fatalf("unused: %s %+v", v.Outcome, v.Reasons)
	}
	v := judge(t, "ruff", map[string]string{"a.py": "import os\n", "ruff.toml": ""})
	if v.Outcome != CouldNotRun || !v.Blocks || v.Reasons[0].Code != "tool_not_found" || !strings.Contains(v.Reasons[0].Msg, "pip install ruff") {
		t.Fatalf("used, not installed: %s %+v", v.Outcome, v.Reasons)
	}
}

// TestFactsOfAnUnusedTool: asked with stacks, an unused tool's namespace is
// the engine's not_used and its runner does not run; asked alone (`tausik
// facts --namespace ruff`), the tool runs as it always did.
func TestFactsOfAnUnusedTool(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"a.py": "import os\n"})
	e := builtinEngine(t, root)
	doc, err := e.Facts(context.Background(), Request{Trigger: "commit"}, []string{"stacks", "ruff"})
	if err != nil {
		t.Fatal(err)
	}
	if ns := doc.Namespaces["ruff"]; ns.Status != facts.StatusUnavailable || ns.Reason != commandgate.ReasonNotUsed || ns.Data != nil {
		t.Fatalf("ruff with stacks: %+v", ns)
	}
	t.Setenv("PATH", t.TempDir())
	doc, err = e.Facts(context.Background(), Request{Trigger: "commit"}, []string{"ruff"})
	if err != nil {
		t.Fatal(err)
	}
	if ns := doc.Namespaces["ruff"]; ns.Status != facts.StatusError || ns.Reason != "not_found" {
		t.Fatalf("ruff alone: %s %s, want the runner's not_found", ns.Status, ns.Reason)
	}
}

// stacksEngine builds the built-in engine over a project holding files,
// whose tausik/gates.json is project.
func stacksEngine(t *testing.T, project string, files map[string]string) *Engine {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, files)
	writeFiles(t, root, map[string]string{"tausik/gates.json": project})
	e, err := New(context.Background(), Deps{Root: root, Builtin: policies.FS, Runners: stdrunners.New(nil),
		Config: config.Paths{Project: filepath.Join(root, "tausik", "gates.json")}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestProjectSwitchesOffAnUnusedTool: the project tier may switch off a
// command gate whose tool the project does not use, and that is reported;
// once a marker shows the tool is used, the switch is refused as any
// weakening is; a gate that is no command gate stays refused.
func TestProjectSwitchesOffAnUnusedTool(t *testing.T) {
	off := `{"gates": {"ruff": {"enabled": false}, "pytest": {"enabled": false}, "filesize": {"enabled": false}}}`
	e := stacksEngine(t, off, map[string]string{"a.py": "import os\n", "pytest.ini": "[pytest]\n"})
	if eff, _ := e.Effective("ruff"); eff.Enabled || eff.SetBy["enabled"] != config.TierProject {
		t.Fatalf("ruff %+v, want switched off by the project", eff)
	}
	for _, g := range []string{"pytest", "filesize"} {
		if eff, _ := e.Effective(g); !eff.Enabled {
			t.Errorf("%s switched off by the project tier", g)
		}
	}
	w := strings.Join(e.ConfigWarnings(), "\n")
	for _, want := range []string{
		"tausik/gates.json:1: gates.ruff.enabled: accepted: the project shows no sign of using ruff",
		"gates.pytest.enabled: refused: it would switch the gate off",
		"gates.filesize.enabled: refused: it would switch the gate off",
	} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
	dec, err := e.Evaluate(context.Background(), Request{Trigger: "commit"})
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(dec.Gates, func(v Verdict) bool { return v.Name == "ruff" }) {
		t.Error("a switched-off ruff was evaluated")
	}
	notes := strings.Join(DisabledNotes(dec), "\n")
	if !strings.Contains(notes, "ruff (block) is disabled by the project tier (tausik/gates.json)") || strings.Contains(notes, "pytest") {
		t.Errorf("notes %q", notes)
	}
	if !slices.ContainsFunc(dec.Warnings, func(s string) bool { return strings.Contains(s, "accepted") }) {
		t.Errorf("decision warnings %q lack the accepted switch", dec.Warnings)
	}

	e = stacksEngine(t, off, map[string]string{"a.py": "import os\n", "pyproject.toml": "[tool.ruff]\n"})
	if eff, _ := e.Effective("ruff"); !eff.Enabled {
		t.Fatal("the project switched off ruff, which it uses")
	}
	if w := strings.Join(e.ConfigWarnings(), "\n"); !strings.Contains(w, "gates.ruff.enabled: refused") {
		t.Fatalf("warnings %s", w)
	}
}
