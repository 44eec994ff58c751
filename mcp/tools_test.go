package mcp

import (
	"context"
	"encoding/json"
	"github.com/tausik/tausik/internal/project"
	"reflect"
	"strings"
	"testing"

	"github.com/tausik/tausik/internal/app"
)

func bigProject(t *testing.T) string {
	return testProject(t, map[string]string{
		"big.sh":    strings.Repeat("x = 1\n", 501),
		"small.txt": "x = 1\n",
	})
}

func TestPolicyEvalBlocksAndIsLogged(t *testing.T) {
	root := bigProject(t)
	c := inProcess(t, root)
	res := call(t, c, "policy_eval", map[string]any{"trigger": "commit"})
	if res.IsError {
		t.Fatalf("a blocking verdict is an answer, not an error: %s", text(res))
	}
	var got evalResult
	structured(t, res.StructuredContent, &got)
	fs := gateNamed(got, "filesize")
	if !got.Blocked || got.ExitCode != 1 || fs == nil || fs.Outcome != "FAILED" || fs.Violations[0].File != "big.sh" {
		t.Fatalf("result = %+v", got)
	}
	var fromText evalResult
	if err := json.Unmarshal([]byte(text(res)), &fromText); err != nil || fromText.DecisionID != got.DecisionID {
		t.Errorf("text content must carry the same JSON: %v %q", err, text(res))
	}
	st, err := project.OpenExistingStore(context.Background(), root, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	entry, err := st.GetDecision(context.Background(), got.DecisionID)
	if err != nil {
		t.Fatalf("decision %s not in the log: %v", got.DecisionID, err)
	}
	if entry.Requester != "mcp:unit-test" || !entry.Blocked {
		t.Errorf("logged %+v", entry.Decision)
	}
	res = call(t, c, "policy_eval", map[string]any{"trigger": "commit", "files": []any{"small.txt"}})
	structured(t, res.StructuredContent, &got)
	if fs := gateNamed(got, "filesize"); got.Blocked || fs == nil || fs.Outcome != "PASSED" {
		t.Errorf("small.txt alone: %+v", got)
	}
}

func TestStrictArguments(t *testing.T) {
	c := inProcess(t, bigProject(t))
	cases := []struct {
		tool string
		args any
		want string
	}{
		{"policy_eval", map[string]any{"trigger": "commit", "fies": []any{"a"}}, `unknown argument "fies"; this tool takes: trigger, files, task, gates`},
		{"policy_eval", map[string]any{}, `missing required argument "trigger"`},
		{"policy_eval", map[string]any{"trigger": "deploy"}, `argument "trigger" must be one of task-start, pre-write, post-write, commit, verify, task-done, review, got "deploy"`},
		{"policy_eval", map[string]any{"trigger": "commit", "files": "a.py"}, `argument "files" must be a list of strings, got the string "a.py"`},
		{"policy_eval", map[string]any{"trigger": "commit", "files": []any{"a.py", 3}}, `argument "files" item 1 must be a string, got the number 3`},
		{"policy_eval", map[string]any{"trigger": "commit", "gates": []any{"nope"}}, `unknown gate "nope"`},
		{"policy_eval", []any{"commit"}, "arguments must be a JSON object"},
		{"policy_list", map[string]any{"verbose": true}, `unknown argument "verbose"; this tool takes no arguments`},
		{"policy_explain", map[string]any{"gate": 7}, `argument "gate" must be a string, got the number 7`},
		{"policy_explain", map[string]any{"gate": "nope"}, `no gate named "nope"; known gates: `},
	}
	for _, tc := range cases {
		res := call(t, c, tc.tool, tc.args)
		if !res.IsError || !strings.Contains(text(res), tc.want) {
			t.Errorf("%s %v: isError=%v %q, want an error containing %q", tc.tool, tc.args, res.IsError, text(res), tc.want)
		}
	}
}

func TestPolicyListAndExplain(t *testing.T) {
	root := testProject(t, map[string]string{"tausik/gates.json": `{"gates": {"filesize": {"params": {"max_lines": 300}}}}`})
	c := inProcess(t, root)
	res := call(t, c, "policy_list", nil)
	if res.IsError || !strings.Contains(text(res), `"name":"filesize"`) || !strings.Contains(text(res), `"name":"tdd_order"`) {
		t.Fatalf("policy_list: %s", text(res))
	}
	res = call(t, c, "policy_explain", map[string]any{"gate": "filesize"})
	var ex struct {
		Prevents string          `json:"prevents"`
		Facts    []string        `json:"facts"`
		Fixtures []string        `json:"fixtures"`
		Params   []app.ParamView `json:"params"`
	}
	structured(t, res.StructuredContent, &ex)
	var maxLines app.ParamView
	for _, p := range ex.Params {
		if p.Name == "max_lines" {
			maxLines = p
		}
	}
	if ex.Prevents == "" || ex.Facts[0] != "files" || len(ex.Fixtures) < 2 ||
		maxLines.Value != float64(300) || maxLines.Default != float64(500) || maxLines.SetBy != "project" {
		t.Errorf("explain = %+v", ex)
	}
}

func gateNamed(r evalResult, name string) *evalVerdict {
	for i := range r.Gates {
		if r.Gates[i].Name == name {
			return &r.Gates[i]
		}
	}
	return nil
}

// TestPolicyExplainIsAppExplain checks that the MCP tool returns exactly
// what `tausik policy explain --format json` prints (app.Explain): one
// implementation, so the agent and the person see the same origins and
// fixtures; and that an unknown gate names the closest one.
func TestPolicyExplainIsAppExplain(t *testing.T) {
	root := testProject(t, map[string]string{"tausik/gates.json": "{\"gates\": {\"filesize\":\n {\"params\": {\"max_lines\": 300}}}}"})
	c := inProcess(t, root)
	res := call(t, c, "policy_explain", map[string]any{"gate": "filesize"})
	if res.IsError {
		t.Fatalf("policy_explain: %s", text(res))
	}
	got, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := app.Explain(openEngine(t, root), "filesize")
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(ex)
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("policy_explain differs from app.Explain:\n got %s\nwant %s", got, want)
	}
	for _, frag := range []string{`"set_at":"tausik/gates.json:2"`, `"outcome":"FAILED"`, `"dir":"policies/filesize"`} {
		if !strings.Contains(string(got), frag) {
			t.Errorf("policy_explain lacks %s: %s", frag, got)
		}
	}
	res = call(t, c, "policy_explain", map[string]any{"gate": "filesiz"})
	if !res.IsError || !strings.HasPrefix(text(res), `no gate named "filesiz" (did you mean "filesize"?); known gates: `) {
		t.Errorf("unknown gate: isError=%v %q", res.IsError, text(res))
	}
}
