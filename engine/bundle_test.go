package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/diag"
)

// TestBundleRefusals loads bundles broken in each way the loader must refuse
// and checks the error kind and that the message names file and line.
func TestBundleRefusals(t *testing.T) {
	good := gateYAML("big", "rego", paramsMaxLines)
	cases := []struct {
		name  string
		files map[string]string
		want  string // substring of the error, including file:line where there is one
	}{
		{"bad yaml", map[string]string{"big/gate.yaml": "name: big\n  bad: [\n", "big/policy.rego": regoBig},
			"policies/big/gate.yaml:2: invalid YAML"},
		{"unknown key", map[string]string{"big/gate.yaml": good + "colour: red\n", "big/policy.rego": regoBig},
			`policies/big/gate.yaml:12: unknown key "colour"`},
		{"unknown trigger", map[string]string{"big/gate.yaml": strings.Replace(good, "[commit]", "[commit, deploy]", 1), "big/policy.rego": regoBig},
			`policies/big/gate.yaml:5: unknown trigger "deploy"`},
		{"unknown severity", map[string]string{"big/gate.yaml": strings.Replace(good, "severity: block", "severity: fatal", 1), "big/policy.rego": regoBig},
			`policies/big/gate.yaml:6: unknown severity "fatal"`},
		{"unknown phase", map[string]string{"big/gate.yaml": strings.Replace(good, "phase: scoped", "phase: later", 1), "big/policy.rego": regoBig},
			`policies/big/gate.yaml:4: unknown phase "later"`},
		{"unknown facts namespace", map[string]string{"big/gate.yaml": strings.Replace(good, "facts: [files]", "facts: [files, weather]", 1), "big/policy.rego": regoBig},
			`policies/big/gate.yaml:9: unknown facts namespace "weather"`},
		{"missing key", map[string]string{"big/gate.yaml": strings.Replace(good, "prevents: a change that this test gate objects to\n", "", 1), "big/policy.rego": regoBig},
			`missing required key "prevents"`},
		{"name differs from dir", map[string]string{"big/gate.yaml": strings.Replace(good, "name: big", "name: small", 1), "big/policy.rego": regoBig},
			`policies/big/gate.yaml:1: name "small" must equal the bundle directory name "big"`},
		{"param default of wrong type", map[string]string{"big/gate.yaml": strings.Replace(good, "default: 3", "default: three", 1), "big/policy.rego": regoBig},
			"policies/big/gate.yaml:11: params.max_lines.default: want an integer"},
		{"project_may that does not fit the type", map[string]string{"big/gate.yaml": strings.Replace(good, "project_may: lower", "project_may: add", 1), "big/policy.rego": regoBig},
			`params.max_lines.project_may: "add" does not apply`},
		{"missing policy", map[string]string{"big/gate.yaml": good},
			"policies/big/policy.rego: missing policy file"},
		{"both policies", map[string]string{"big/gate.yaml": good, "big/policy.rego": regoBig, "big/policy.cel.yaml": celBig},
			"policies/big/policy.cel.yaml: language is rego"},
		{"unexpected file", map[string]string{"big/gate.yaml": good, "big/policy.rego": regoBig, "big/notes.txt": "x"},
			"policies/big/notes.txt: unexpected file"},
		{"rego does not compile", map[string]string{"big/gate.yaml": good, "big/policy.rego": "package tausik.gates.big\n\nviolations contains x if {\n\tx := \n}\n"},
			"policies/big/policy.rego:5: rego_parse_error"},
		{"rego undefined function", map[string]string{"big/gate.yaml": good, "big/policy.rego": "package tausik.gates.big\n\nviolations contains {\"msg\": x} if {\n\tx := no_such_fn(1)\n}\n"},
			"policies/big/policy.rego:4: rego_type_error"},
		{"rego wrong package", map[string]string{"big/gate.yaml": good, "big/policy.rego": strings.Replace(regoBig, "tausik.gates.big", "gates.big", 1)},
			"policies/big/policy.rego:1: package must be tausik.gates.big"},
		{"rego without violations", map[string]string{"big/gate.yaml": good, "big/policy.rego": "package tausik.gates.big\n\nallow := true\n"},
			`must define "violations"`},
		{"rego violations not multi-value", map[string]string{"big/gate.yaml": good, "big/policy.rego": "package tausik.gates.big\n\nviolations := []\n"},
			"policies/big/policy.rego:3: violations must be a multi-value rule"},
		{"rego violations of strings", map[string]string{"big/gate.yaml": good, "big/policy.rego": "package tausik.gates.big\n\nviolations contains sprintf(\"%s is big\", [f.path]) if {\n\tsome f in input.files.files\n\tf.lines > 3\n}\n"},
			"policies/big/policy.rego:3: violations: a violation must be an object"},
		{"rego violation with unknown key", map[string]string{"big/gate.yaml": good, "big/policy.rego": "package tausik.gates.big\n\nviolations contains {\"msg\": \"x\", \"colour\": 1} if input.files.status == \"ok\"\n"},
			`unknown key "colour"`},
		{"rego reason of wrong type", map[string]string{"big/gate.yaml": good, "big/policy.rego": regoBig + "\nnot_applicable contains 42 if true\n"},
			"not_applicable: a reason must be a code string"},
		{"rego unsafe builtin", map[string]string{"big/gate.yaml": good, "big/policy.rego": "package tausik.gates.big\n\nviolations contains {\"msg\": \"late\"} if time.now_ns() > 0\n"},
			"policies/big/policy.rego:3: rego_type_error: unsafe built-in function calls in expression: time.now_ns"},
		{"cel does not compile", map[string]string{"big/gate.yaml": gateYAML("big", "cel", paramsMaxLines), "big/policy.cel.yaml": "violations:\n  - rule: big\n    expr: >-\n      input.files.files.filter(f,\n        f.lines >)\n"},
			"policies/big/policy.cel.yaml:5: violations[0].expr: Syntax error"},
		{"cel violations of wrong type", map[string]string{"big/gate.yaml": gateYAML("big", "cel", paramsMaxLines), "big/policy.cel.yaml": "violations:\n  - rule: big\n    expr: size(input.files.files) > 3\n"},
			"policies/big/policy.cel.yaml:3: violations[0].expr: wrong result type bool"},
		{"cel when not bool", map[string]string{"big/gate.yaml": gateYAML("big", "cel", paramsMaxLines), "big/policy.cel.yaml": "could_not_run:\n  - code: x\n    when: '\"yes\"'\n" + celBig[strings.Index(celBig, "violations:"):]},
			"policies/big/policy.cel.yaml:3: could_not_run[0].when: wrong result type string"},
		{"cel unknown key", map[string]string{"big/gate.yaml": gateYAML("big", "cel", paramsMaxLines), "big/policy.cel.yaml": celBig + "allow: true\n"},
			`policies/big/policy.cel.yaml:9: unknown key "allow"`},
		{"cel undeclared variable", map[string]string{"big/gate.yaml": gateYAML("big", "cel", paramsMaxLines), "big/policy.cel.yaml": "violations:\n  - rule: big\n    expr: 'files.map(f, {\"msg\": f})'\n"},
			"policies/big/policy.cel.yaml:3: violations[0].expr: undeclared reference to 'files'"},
		{"cel bad reason code", map[string]string{"big/gate.yaml": gateYAML("big", "cel", paramsMaxLines), "big/policy.cel.yaml": "could_not_run:\n  - code: Bad Code\n    when: 'true'\n" + celBig[strings.Index(celBig, "violations:"):]},
			`could_not_run[0].code "Bad Code" must match`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, err := newTestEngine(t, t.TempDir(), c.files)
			if err == nil {
				t.Fatalf("loaded %d gate(s), want a refusal containing %q", len(e.Gates()), c.want)
			}
			if !errors.Is(err, diag.ErrBundle) {
				t.Errorf("error kind: %v, want ErrBundle", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error:\n%v\nwant it to contain %q", err, c.want)
			}
		})
	}
}

// TestBundleNothingHalfLoaded: one broken bundle among good ones refuses the
// whole load.
func TestBundleNothingHalfLoaded(t *testing.T) {
	files := map[string]string{
		"big/gate.yaml":       gateYAML("big", "rego", paramsMaxLines),
		"big/policy.rego":     regoBig,
		"bad/gate.yaml":       gateYAML("bad", "cel"),
		"bad/policy.cel.yaml": "violations: []\n",
	}
	e, err := newTestEngine(t, t.TempDir(), files)
	if err == nil {
		t.Fatalf("loaded %d gates from a set with a broken bundle", len(e.Gates()))
	}
	if !strings.Contains(err.Error(), "policies/bad/policy.cel.yaml:1: violations must be a non-empty list") {
		t.Errorf("error %q does not locate the broken bundle", err)
	}
}

// TestBundleReportsEveryProblem: the loader reports all problems of a file at once.
func TestBundleReportsEveryProblem(t *testing.T) {
	y := strings.NewReplacer("severity: block", "severity: fatal", "phase: scoped", "phase: later").Replace(gateYAML("big", "rego"))
	_, err := newTestEngine(t, t.TempDir(), map[string]string{"big/gate.yaml": y, "big/policy.rego": regoBig})
	if err == nil {
		t.Fatal("loaded a gate.yaml with two errors")
	}
	var d *diag.Diagnostics
	if !errors.As(err, &d) || len(d.Items) != 2 {
		t.Fatalf("want 2 diagnostics, got %v", err)
	}
}
