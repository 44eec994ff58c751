package policytest

import (
	"context"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/diag"
)

// mutationGate has a tree/ base and a facts.json base, each with mutation
// fixtures of every step kind; the messages show what each step changed.
var mutationGate = map[string]string{
	"big/gate.yaml":                     gateYAML("big", "rego", paramsMaxLines),
	"big/policy.rego":                   regoBig,
	"big/fixtures/tree/case.yaml":       "description: three small files\nexpect: {outcome: PASSED}\n",
	"big/fixtures/tree/tree/a.txt":      "1\n2\n3\n",
	"big/fixtures/tree/tree/b.txt":      "1\n",
	"big/fixtures/tree/tree/d/c.txt":    "1\n2\n3\n",
	"big/fixtures/tree/tree/d/keep.txt": "1\n",
	"big/fixtures/appended/case.yaml": `description: a line appended to a.txt
base: tree
mutate:
  - append: {file: a.txt, content: "4\n"}
  - delete: d
expect: {outcome: FAILED, violations: 1, messages: [a.txt is big]}
`,
	"big/fixtures/written/case.yaml": `description: b.txt overwritten, a new file written
base: tree
mutate:
  - write: {file: b.txt, content: "1\n2\n3\n4\n"}
  - write: {file: new/e.txt, content: "1\n2\n3\n4\n5\n6\n"}
  - delete: d/c.txt
expect: {outcome: FAILED, violations: 2, messages: [b.txt is big, new/e.txt is big]}
`,
	"big/fixtures/replaced/case.yaml": `description: lines replaced by number and by text, on a mutation of a mutation
base: appended
mutate:
  - replace: {file: a.txt, line: 4, with: "1\n2"}
  - replace: {file: b.txt, old: "1", with: "one"}
params: {max_lines: 4}
expect: {outcome: FAILED, violations: 1, messages: [a.txt is big]}
`,
	"big/fixtures/facts/case.yaml":  "description: facts with one small file\nparams: {max_lines: 10}\nexpect: {outcome: PASSED}\n",
	"big/fixtures/facts/facts.json": `{"files": {"status": "ok", "files": [{"path": "x.py", "lines": 10, "tags": {"a/b": 1}}]}}`,
	"big/fixtures/grown/case.yaml": `description: the file grows by one line (params inherited from the base)
base: facts
mutate:
  - set: {path: /files/files/0/lines, value: 11}
  - set: {path: /files/files/-, value: {path: y.py, lines: 12}}
  - unset: /files/files/0/tags/a~1b
expect: {outcome: FAILED, violations: 2, messages: [x.py is big, y.py is big]}
`,
	"big/fixtures/broken/case.yaml": `description: the files namespace broken
base: facts
mutate:
  - set: {path: /files/status, value: error}
  - set: {path: /files/reason, value: disk gone}
expect: {outcome: COULD_NOT_RUN, reasons: [files_unavailable]}
`,
}

func TestMutationFixtures(t *testing.T) {
	e, err := newTestEngine(t, t.TempDir(), mutationGate)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), e, Options{RequireTools: true})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.Passed != 7 {
		t.Fatalf("report %+v", rep)
	}
	g, _ := e.Gate("big")
	c, d := loadCase(g, "replaced")
	if d != nil || c.Base != "appended" || len(c.Mutate) != 2 || c.Params["max_lines"] != int64(4) {
		t.Fatalf("case %+v %v", c, d)
	}
}

func TestMutationFixtureErrors(t *testing.T) {
	cases := map[string]string{
		"mutate:\n  - delete: a.txt\n":                "a mutation fixture names the case it changes",
		"base: nope\nmutate:\n  - delete: a.txt\n":    `base nope: policies/big/fixtures/nope/case.yaml: every fixture needs a case.yaml`,
		"base: c\nmutate:\n  - delete: a.txt\n":       `base: "c" leads back to this case (c → c)`,
		"base: ../tree\nmutate:\n  - delete: a.txt\n": `base: "../tree" is not a fixture`,
		"base: tree\n": "mutate: want a non-empty list of steps",
		"base: tree\nmutate:\n  - delete: nope.txt\n":                                   "delete: the base's tree has no file or directory nope.txt",
		"base: tree\nmutate:\n  - append: {file: nope, content: x}\n":                   "append: the base's tree has no file nope",
		"base: tree\nmutate:\n  - replace: {file: a.txt, line: 9, with: x}\n":           "line 9: the file has 1 lines",
		"base: tree\nmutate:\n  - replace: {file: a.txt, old: zz, with: x}\n":           `no line is exactly "zz"`,
		"base: tree\nmutate:\n  - replace: {file: a.txt, with: x}\n":                    "name the line by exactly one of line or old",
		"base: tree\nmutate:\n  - write: {file: ../x, content: x}\n":                    `path "../x" must stay inside the tree`,
		"base: tree\nmutate:\n  - set: {path: /files/status, value: x}\n":               "the base is a tree/ case",
		"base: facts\nmutate:\n  - delete: a.txt\n":                                     "the base is a facts.json case",
		"base: facts\nmutate:\n  - unset: /files/nope\n":                                `unset /files/nope: no key "nope"`,
		"base: facts\nmutate:\n  - set: {path: files.status, value: x}\n":               "is not a JSON pointer",
		"base: facts\nmutate:\n  - set: {path: /files/files/7/x, value: 1}\n":           `no element "7" in a list of 0`,
		"base: facts\nmutate:\n  - unset: /files\n":                                     `the gate reads namespace "files"`,
		"base: tree\nmutate:\n  - {delete: a.txt, append: {file: a.txt, content: x}}\n": "a step has exactly one of",
		"base: tree\nmutate:\n  - move: a.txt\n":                                        `unknown key "move"`,
	}
	for body, want := range cases {
		files := map[string]string{
			"big/gate.yaml": gateYAML("big", "rego", paramsMaxLines), "big/policy.rego": regoBig,
			"big/fixtures/tree/case.yaml": "description: base\nexpect: {outcome: PASSED}\n", "big/fixtures/tree/tree/a.txt": "1\n",
			"big/fixtures/facts/case.yaml": "description: base\nexpect: {outcome: PASSED}\n", "big/fixtures/facts/facts.json": `{"files": {"status": "ok", "files": []}}`,
			"big/fixtures/c/case.yaml": "description: a mutation\n" + body + "expect: {outcome: PASSED}\n",
		}
		e, err := newTestEngine(t, t.TempDir(), files)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := e.Gate("big")
		if _, d := loadCase(g, "c"); d == nil || !strings.Contains(d.Error(), want) {
			t.Errorf("%q: diagnostics %v, want %q", body, d, want)
		}
	}
	// A mutation fixture brings no content of its own.
	e, err := newTestEngine(t, t.TempDir(), map[string]string{
		"big/gate.yaml": gateYAML("big", "rego", paramsMaxLines), "big/policy.rego": regoBig,
		"big/fixtures/facts/case.yaml": "description: base\nexpect: {outcome: PASSED}\n", "big/fixtures/facts/facts.json": `{"files": {"status": "ok", "files": []}}`,
		"big/fixtures/c/case.yaml":  "description: m\nbase: facts\nmutate:\n  - unset: /files/files\nexpect: {outcome: PASSED}\n",
		"big/fixtures/c/facts.json": "{}",
	})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := e.Gate("big")
	if _, d := loadCase(g, "c"); d == nil || !strings.Contains(d.Error(), "takes its facts or tree from its base") {
		t.Errorf("own facts.json: %v", d)
	}
	var _ = diag.ErrBundle
}
