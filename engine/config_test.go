package engine

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/config"
	"github.com/tausik/tausik/engine/diag"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/fs"
)

// configGates is a gate with one param of each tightening rule.
var configGates = map[string]string{
	"big/gate.yaml": gateYAML("big", "rego", `params:
  max_lines: {type: int, default: 3, project_may: lower, description: a maximum}
  min_tests: {type: int, default: 1, project_may: raise, description: a minimum}
  exempt: {type: strings, default: [vendor/], project_may: add, description: exemptions}
  reasons: {type: object, default: {a: "why a"}, project_may: add, description: reasons}
  locked: {type: bool, default: true, project_may: none, description: only higher tiers}
  label: {type: string, default: x, description: free}`),
	"big/policy.rego": regoBig,
}

// engineWithTiers writes the given tier files and loads configGates.
func engineWithTiers(t *testing.T, project, user, managed string) (*Engine, error) {
	t.Helper()
	dir := t.TempDir()
	paths := config.Paths{Project: filepath.Join(dir, "tausik", "gates.json"), User: filepath.Join(dir, "user.json")}
	files := map[string]string{}
	for rel, body := range map[string]string{"tausik/gates.json": project, "user.json": user, "managed.json": managed} {
		if body != "" {
			files[rel] = body
		}
	}
	writeFiles(t, dir, files)
	if managed != "" {
		paths.Managed = filepath.Join(dir, "managed.json")
	}
	return New(context.Background(), Deps{Root: dir, Builtin: bundleFS(configGates), Runners: runners.NewRegistry(fs.New()), Config: paths})
}

func TestConfigProjectMayTighten(t *testing.T) {
	e, err := engineWithTiers(t, `{"gates": {"big": {
		"severity": "block", "triggers": ["commit", "verify"],
		"params": {"max_lines": 2, "min_tests": 5, "exempt": ["gen/"], "reasons": {"b": "why b"}, "label": "y"}}}}`, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if w := e.ConfigWarnings(); len(w) != 0 {
		t.Errorf("tightening produced warnings: %v", w)
	}
	eff, _ := e.Effective("big")
	p := eff.Params
	if p["max_lines"] != int64(2) || p["min_tests"] != int64(5) || p["label"] != "y" {
		t.Errorf("params = %v", p)
	}
	if got := p["exempt"].([]any); len(got) != 2 || got[0] != "vendor/" || got[1] != "gen/" {
		t.Errorf("exempt = %v, want the default plus the addition", got)
	}
	if got := p["reasons"].(map[string]any); got["a"] != "why a" || got["b"] != "why b" {
		t.Errorf("reasons = %v", got)
	}
	if strings.Join(eff.Triggers, ",") != "commit,verify" {
		t.Errorf("triggers = %v", eff.Triggers)
	}
	if eff.SetBy["params.max_lines"] != config.TierProject {
		t.Errorf("set_by = %v", eff.SetBy)
	}
}

func TestConfigProjectMayNotWeaken(t *testing.T) {
	e, err := engineWithTiers(t, `{
  "gates": {
    "big": {
      "enabled": false,
      "severity": "warn",
      "triggers": ["verify"],
      "params": {"max_lines": 900, "min_tests": 0, "locked": false, "reasons": {"a": "changed"}}
    }
  }
}`, "", "")
	if err != nil {
		t.Fatal(err)
	}
	w := strings.Join(e.ConfigWarnings(), "\n")
	for _, want := range []string{
		"tausik/gates.json:4: gates.big.enabled: refused: it would switch the gate off",
		"tausik/gates.json:5: gates.big.severity: refused",
		"tausik/gates.json:6: gates.big.triggers: refused: it would remove the trigger(s) commit",
		"tausik/gates.json:7: gates.big.params.max_lines: refused: 900 would loosen the limit 3",
		"gates.big.params.min_tests: refused",
		"gates.big.params.locked: refused: the project tier may not change this param",
	} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
	eff, _ := e.Effective("big")
	if !eff.Enabled || eff.Severity != gate.SeverityBlock || eff.Params["max_lines"] != int64(3) ||
		eff.Params["min_tests"] != int64(1) || eff.Params["locked"] != true {
		t.Errorf("a refused weakening took effect: %+v", eff)
	}
	if strings.Join(eff.Triggers, ",") != "commit,verify" {
		t.Errorf("triggers = %v, want commit kept and verify added", eff.Triggers)
	}
	if eff.Params["reasons"].(map[string]any)["a"] != "why a" {
		t.Errorf("project overwrote an existing exemption reason: %v", eff.Params["reasons"])
	}
}

func TestConfigHigherTiersMayWeaken(t *testing.T) {
	e, err := engineWithTiers(t,
		`{"gates": {"big": {"params": {"max_lines": 2}}}}`,
		`{"gates": {"big": {"params": {"max_lines": 50}}, "someone_elses_gate": {"enabled": false}}}`,
		`{"gates": {"big": {"enabled": false, "severity": "warn", "params": {"locked": false}}}}`)
	if err != nil {
		t.Fatal(err)
	}
	if w := e.ConfigWarnings(); len(w) != 0 {
		t.Errorf("warnings: %v", w)
	}
	eff, _ := e.Effective("big")
	if eff.Enabled || eff.Severity != gate.SeverityWarn || eff.Params["max_lines"] != int64(50) || eff.Params["locked"] != false {
		t.Errorf("effective = %+v", eff)
	}
	if eff.SetBy["params.max_lines"] != config.TierUser || eff.SetBy["enabled"] != config.TierManaged {
		t.Errorf("set_by = %v", eff.SetBy)
	}
}

func TestConfigMalformed(t *testing.T) {
	cases := []struct {
		name, project, want string
	}{
		{"syntax", "{\n  \"gates\": {\n    \"big\": {,}\n  }\n}", "tausik/gates.json:3: invalid JSON"},
		{"not an object", `[1, 2]`, "tausik/gates.json:1: the config must be a JSON object"},
		{"unknown section", "{\n  \"gatez\": {}\n}", "tausik/gates.json:2: gatez: unknown key"},
		{"unknown override key", "{\"gates\": {\"big\": {\n  \"colour\": \"red\"}}}", "tausik/gates.json:2: gates.big.colour: unknown key"},
		{"unknown gate", "{\"gates\": {\n \"nope\": {}}}", "tausik/gates.json:2: gates.nope: no such gate"},
		{"unknown param", "{\"gates\": {\"big\": {\"params\": {\n\"max_line\": 3}}}}", "tausik/gates.json:2: gates.big.params.max_line: no such param"},
		{"wrong type", "{\"gates\": {\"big\": {\"params\": {\n\n\"max_lines\": \"ten\"}}}}", "tausik/gates.json:3: gates.big.params.max_lines: want an integer, got the string \"ten\""},
		{"bad severity", `{"gates": {"big": {"severity": "fatal"}}}`, "gates.big.severity: want \"block\", \"ask\" or \"warn\""},
		{"bad trigger", `{"gates": {"big": {"triggers": ["deploy"]}}}`, "gates.big.triggers: unknown trigger the string \"deploy\""},
		{"bad enabled", `{"gates": {"big": {"enabled": "yes"}}}`, "gates.big.enabled: want true or false"},
		{"strings item", `{"gates": {"big": {"params": {"exempt": ["a", 1]}}}}`, "gates.big.params.exempt: item 1: want a string"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := engineWithTiers(t, c.project, "", "")
			if !errors.Is(err, diag.ErrConfig) {
				t.Fatalf("err = %v, want ErrConfig", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error:\n%v\nwant it to contain %q", err, c.want)
			}
		})
	}
}

func TestConfigManagedTierFailsClosed(t *testing.T) {
	dir := t.TempDir()
	_, err := New(context.Background(), Deps{Root: dir, Builtin: bundleFS(configGates),
		Runners: runners.NewRegistry(fs.New()), Config: config.Paths{Managed: filepath.Join(dir, "missing.json")}})
	if !errors.Is(err, diag.ErrConfig) || !strings.Contains(err.Error(), "missing.json") {
		t.Fatalf("a named but missing managed config gave %v, want ErrConfig naming it", err)
	}
}

// Severity ask sits between warn and block: the project may not lower a
// block gate to ask, and raising warn to ask or block is tightening.
func TestConfigSeverityAskRanks(t *testing.T) {
	e, err := engineWithTiers(t, `{"gates": {"big": {"severity": "ask"}}}`, "", "")
	if err != nil {
		t.Fatal(err)
	}
	w := strings.Join(e.ConfigWarnings(), "\n")
	if eff, _ := e.Effective("big"); eff.Severity != gate.SeverityBlock || !strings.Contains(w, "it would lower the severity from block to ask") {
		t.Errorf("block lowered to ask: severity %s, warnings %s", eff.Severity, w)
	}
	if !(gate.SeverityRank(gate.SeverityWarn) < gate.SeverityRank(gate.SeverityAsk) && gate.SeverityRank(gate.SeverityAsk) < gate.SeverityRank(gate.SeverityBlock)) {
		t.Errorf("ranks warn %d, ask %d, block %d", gate.SeverityRank(gate.SeverityWarn), gate.SeverityRank(gate.SeverityAsk), gate.SeverityRank(gate.SeverityBlock))
	}
}
