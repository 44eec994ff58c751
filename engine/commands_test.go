package engine

import (
	"context"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/stdrunners"

	"github.com/tausik/tausik/engine/commandgate"

	"github.com/tausik/tausik/engine/config"

	"github.com/tausik/tausik/policies"
	"github.com/tausik/tausik/runners/command"
)

// newCommandEngine builds an engine with the built-in bundles over a project
// whose tausik/gates.json is project and whose user tier is user ("" = none).
func newCommandEngine(t *testing.T, project, user string) (*Engine, error) {
	t.Helper()
	root := t.TempDir()
	paths := config.Paths{Project: filepath.Join(root, "tausik", "gates.json")}
	writeFiles(t, root, map[string]string{"tausik/gates.json": project})
	if user != "" {
		paths.User = filepath.Join(root, "user.json")
		writeFiles(t, root, map[string]string{"user.json": user})
	}
	return New(context.Background(), Deps{Root: root, Builtin: policies.FS, Runners: stdrunners.New(nil), Config: paths})
}

// configErr returns err's diagnostics as text, failing unless it is ErrConfig.
func configErr(t *testing.T, err error) string {
	t.Helper()
	if !errors.Is(err, diag.ErrConfig) {
		t.Fatalf("err %v, want ErrConfig", err)
	}
	return err.Error()
}

func TestCommandGateFromProjectConfig(t *testing.T) {
	t.Setenv(command.PythonEnv, "")
	e, err := newCommandEngine(t, `{
  "commands": {
    "go_version": {"argv": ["go", "version"], "triggers": ["commit"], "severity": "warn",
                   "description": "the Go toolchain answers at all"}
  }
}`, `{"allow_commands": [["go", "version"]]}`)
	if err != nil {
		t.Fatal(err)
	}
	g, ok := e.Gate("go_version")
	if !ok {
		t.Fatal("no go_version gate")
	}
	if g.Source != "tausik/gates.json" || g.Table() != gate.TableCovered || g.Language != gate.LangRego || !slices.Equal(g.Facts, []string{"go_version"}) {
		t.Fatalf("gate %+v", g.Meta)
	}
	eff, _ := e.Effective("go_version")
	if !eff.Enabled || eff.Severity != gate.SeverityWarn || !slices.Equal(eff.Triggers, []string{"commit"}) || eff.Params[commandgate.ParamNamespace] != "go_version" {
		t.Fatalf("effective %+v", eff)
	}
	dec, err := e.Evaluate(context.Background(), Request{Trigger: "commit", Gates: []string{"go_version"}})
	if err != nil {
		t.Fatal(err)
	}
	if v := dec.Gates[0]; v.Outcome != Passed || v.Source != "tausik/gates.json" {
		t.Fatalf("verdict %+v", v)
	}
}

// A project's config must not pick the programs tausik runs: allowing
// commands, or running one that starts with no allowed prefix, is refused
// naming file, line and key; the user tier may allow it.
func TestProjectCommandTrust(t *testing.T) {
	for _, k := range []string{"command_allowlist", "allow_commands"} {
		_, err := newCommandEngine(t, "{\n  \""+k+"\": [[\"node\"]]\n}\n", "")
		if msg := configErr(t, err); !strings.Contains(msg, "tausik/gates.json:2: "+k+": refused: only the user or managed tier may allow commands") {
			t.Fatalf("message %q", msg)
		}
	}
	project := "{\n  \"commands\": {\n    \"js\": {\n      \"argv\": [\"node\", \"--check\", \"{files}\"],\n      \"triggers\": [\"commit\"]\n    }\n  }\n}\n"
	_, err := newCommandEngine(t, project, "")
	if msg := configErr(t, err); !strings.Contains(msg, "tausik/gates.json:4: commands.js.argv: refused: `node --check {files}` starts with no allowed command") ||
		!strings.Contains(msg, `"allow_commands": [["node"]]`) {
		t.Fatalf("message %q", msg)
	}
	e, err := newCommandEngine(t, project, `{"command_allowlist": ["node"]}`)
	if err != nil {
		t.Fatalf("allowed by the user tier: %v", err)
	}
	if !slices.ContainsFunc(e.Allowlist(), func(p []string) bool { return slices.Equal(p, []string{"node"}) }) {
		t.Fatalf("allow-list %v", e.Allowlist())
	}
	// A path is not a bare name: allowing "node" does not allow ./node.
	_, err = newCommandEngine(t, strings.Replace(project, `"node"`, `"./node"`, 1), `{"command_allowlist": ["node"]}`)
	configErr(t, err)
	// A command the user tier defines itself is trusted as written.
	if _, err := newCommandEngine(t, "{}", `{"commands": {"js": {"argv": ["node", "--check", "{files}"], "triggers": ["commit"]}}}`); err != nil {
		t.Fatalf("a user-tier command: %v", err)
	}
}

func TestCommandConfigErrors(t *testing.T) {
	cases := []struct{ config, want string }{
		{`{"commands": {"lint": {"argv": ["go", "vet", "./...;", "rm"], "triggers": ["commit"]}}}`, "commands.lint.argv: shell metacharacter in command"},
		{`{"commands": {"lint": {"argv": ["go", "vet", "$(pwd)"], "triggers": ["commit"]}}}`, `holds "$"`},
		{`{"commands": {"lint": {"argv": ["go", "vet", "{file}"], "triggers": ["commit"]}}}`, "unknown placeholder {file}"},
		{`{"commands": {"lint": {"triggers": ["commit"]}}}`, "commands.lint: argv is required"},
		{`{"commands": {"lint": {"argv": ["go"]}}}`, "commands.lint: triggers is required"},
		{`{"commands": {"lint": {"argv": ["go", "vet"], "triggers": ["save"]}}}`, `commands.lint.triggers: unknown trigger "save"`},
		{`{"commands": {"lint": {"argv": ["go", "vet"], "triggers": ["commit"], "timeout": "soon"}}}`, "commands.lint.timeout: want a positive duration"},
		{`{"commands": {"lint": {"argv": ["go", "vet"], "triggers": ["commit"], "parser": "xml"}}}`, `unknown parser "xml"`},
		{`{"commands": {"lint": {"argv": ["go", "vet"], "triggers": ["commit"], "severity": "fatal"}}}`, "commands.lint.severity: want"},
		{`{"commands": {"lint": {"argv": ["go", "vet"], "triggers": ["commit"], "shell": true}}}`, "commands.lint.shell: unknown key"},
		{`{"commands": {"lint": {"argv": ["go", "vet"], "triggers": ["commit"], "exclude": ["a/[b"]}}}`, "invalid path pattern"},
		{`{"commands": {"lint": {"argv": ["go", "vet"], "triggers": ["commit"], "env": {"LD_PRELOAD": "x.so"}}}}`, "would load code"},
		{`{"commands": {"ruff": {"argv": ["go", "vet"], "triggers": ["commit"]}}}`, "commands.ruff: the name is taken by the gate policies/ruff"},
		{`{"commands": {"files": {"argv": ["go", "vet"], "triggers": ["commit"]}}}`, "the name is taken by the facts namespace files"},
		{`{"commands": {"Lint-1": {"argv": ["go", "vet"], "triggers": ["commit"]}}}`, "a command gate's name must match"},
		{`{"commands": ["go"]}`, "commands: want an object of command gates"},
		{`{"python": 3}`, "python: want the interpreter's name or path"},
		{`{"python": "/opt/evil/python"}`, "python: refused: `/opt/evil/python -m pytest` starts with no allowed command"},
		{`{"commands": {"evil": {"argv": ["python3", "tools/evil.py"], "triggers": ["commit"]}}}`,
			"commands.evil.argv: refused: `python3 tools/evil.py` starts with no allowed command"},
		{`{"allow_commands": [["python3", 3]]}`, "allow_commands: refused"},
		{`{"gates": {"ruff": {"params": {"exclude": ["gen/[x"]}}}}`, "gates.ruff.params.exclude.gen/[x: invalid path pattern"},
	}
	for _, c := range cases {
		_, err := newCommandEngine(t, c.config, "")
		if msg := configErr(t, err); !strings.Contains(msg, c.want) || !strings.Contains(msg, "tausik/gates.json:") {
			t.Errorf("%s:\n got %q\nwant %q", c.config, msg, c.want)
		}
	}
}

// The python key picks the built-in pytest gate's interpreter, unless the
// operator's TAUSIK_PYTHON does; the project may name only an allowed one.
func TestPythonKey(t *testing.T) {
	spec := func(e *Engine) command.Spec {
		r, ok := e.runners.Get("pytest")
		if !ok {
			t.Fatal("no pytest runner")
		}
		return r.(*command.Runner).Spec()
	}
	t.Setenv(command.PythonEnv, "")
	e, err := newCommandEngine(t, `{"python": "python3"}`, `{"python": "/usr/bin/python3.11"}`)
	if err != nil {
		t.Fatal(err)
	}
	if got := spec(e).Argv[0]; got != "/usr/bin/python3.11" {
		t.Fatalf("interpreter %q, want the user tier's", got)
	}
	t.Setenv(command.PythonEnv, "/opt/py/bin/python3")
	e, err = newCommandEngine(t, `{"python": "python3"}`, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := spec(e).Argv[0]; got != "/opt/py/bin/python3" {
		t.Fatalf("interpreter %q, want TAUSIK_PYTHON's over the config's", got)
	}
}

// A project may add exclusions to a command gate; the runner gets the union,
// and may not drop the defaults.
func TestExcludeParamReachesTheRunner(t *testing.T) {
	e, err := newCommandEngine(t, `{"gates": {"ruff": {"params": {"exclude": {"gen/": "generated by protoc"}}}}}`, "")
	if err != nil {
		t.Fatal(err)
	}
	r, _ := e.runners.Get("ruff")
	got := r.(*command.Runner).Spec().Exclude
	if !slices.Equal(got, []string{"**/fixtures/*/tree/", "**/testdata/", "gen/"}) {
		t.Fatalf("exclude %q", got)
	}
	g, _ := e.Gate("ruff")
	p, _ := g.Param(commandgate.ParamExclude)
	def := slices.Sorted(maps.Keys(p.Default.(map[string]any)))
	if !slices.Equal(def, slices.Sorted(slices.Values(command.DefaultExclude))) {
		t.Fatalf("gate.yaml default %q differs from command.DefaultExclude %q", def, command.DefaultExclude)
	}
}

// Every built-in command gate has a spec, and every spec's gate exists.
func TestBuiltinCommandGatesHaveSpecs(t *testing.T) {
	e, err := newCommandEngine(t, "{}", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range command.Defaults() {
		g, ok := e.Gate(s.Name)
		// Each reads the stacks facts too: whether the project uses its tool.
		if !ok || !slices.Equal(g.Facts, []string{"stacks", s.Name}) {
			t.Errorf("spec %s: no gate reading its namespace and stacks", s.Name)
		}
		if _, ok := e.runners.Get(s.Name); !ok {
			t.Errorf("spec %s: no runner registered", s.Name)
		}
	}
}
