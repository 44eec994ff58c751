package engine

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/stdrunners"

	"github.com/tausik/tausik/engine/config"

	"github.com/tausik/tausik/policies"
	"github.com/tausik/tausik/runners/hosts"
)

// multiHostGates configures testdata/multihost's generator for its three
// hosts, as a team would in tausik/gates.json.
const multiHostGates = `{
  "generators": {
    "claude":   {"argv": ["python3", "bootstrap/generate.py", "claude", "{out}"], "format": "claude-settings"},
    "qwen":     {"argv": ["python3", "bootstrap/generate.py", "qwen", "{out}"], "format": "claude-settings"},
    "opencode": {"argv": ["python3", "bootstrap/generate.py", "opencode", "{out}"], "format": "plugins"}
  }
}
`

// TestGeneratorsMultiHost runs the generators of a realistic multi-host
// layout (Claude Code and Qwen Code with 21 hooks each, an OpenCode plugin)
// through the engine and holds the hosts facts and cross_model_parity's
// differences to an independent reading of the same generators' output by
// testdata/read_capabilities.py, run with the real python3.
func TestGeneratorsMultiHost(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed to run the generators: %v", err)
	}
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("testdata/multihost")); err != nil {
		t.Fatal(err)
	}
	// The project's generators run a script of its own: a person allows it
	// in the user tier.
	user := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(user, []byte(`{"allow_commands": [["python3", "bootstrap/generate.py"]]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{"tausik/gates.json": multiHostGates})
	e, err := New(context.Background(), Deps{Root: root, Builtin: policies.FS, Runners: stdrunners.New(nil),
		Config: config.Paths{Project: filepath.Join(root, "tausik", "gates.json"), User: user}})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := e.Facts(context.Background(), Request{Trigger: "commit"}, []string{hosts.Namespace})
	if err != nil {
		t.Fatal(err)
	}
	ns := doc.Namespaces[hosts.Namespace]
	got, ok := ns.Data.(hosts.Facts)
	if !ok || ns.Status != "ok" {
		t.Fatalf("hosts namespace: %s %s %#v", ns.Status, ns.Reason, ns.Data)
	}

	// The independent reading of what each generator writes.
	out := t.TempDir()
	var args []string
	for host, file := range map[string]string{"claude": ".claude/settings.json", "qwen": ".qwen/settings.json", "opencode": ".opencode/plugins"} {
		dir := filepath.Join(out, host)
		cmd := exec.Command(python, "bootstrap/generate.py", host, dir)
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("generate %s: %v\n%s", host, err, b)
		}
		format := "claude-settings"
		if host == "opencode" {
			format = "plugins"
		}
		args = append(args, host+"="+format+":"+filepath.Join(dir, file))
	}
	raw, err := exec.Command(python, append([]string{"testdata/read_capabilities.py"}, args...)...).Output()
	if err != nil {
		t.Fatalf("read_capabilities.py: %v", err)
	}
	var want struct {
		Capabilities map[string]map[string]string `json:"capabilities"`
		Differences  []string                     `json:"differences"`
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}

	for _, host := range []string{"claude", "qwen", "opencode"} {
		h := got.Hosts[host]
		if h.Status != hosts.StatusOK {
			t.Fatalf("%s: %s %s\n%s", host, h.Status, h.Reason, h.StderrTail)
		}
		if !maps.Equal(h.Generated.Capabilities, want.Capabilities[host]) {
			t.Errorf("%s capabilities:\n got %v\nwant %v", host, h.Generated.Capabilities, want.Capabilities[host])
		}
	}
	if n := []int{len(want.Capabilities["claude"]), len(want.Capabilities["qwen"]), len(want.Capabilities["opencode"])}; !slices.Equal(n, []int{21, 21, 1}) {
		t.Errorf("the layout has %v capabilities for claude, qwen, opencode, want 21, 21, 1", n)
	}
	if mcp := got.Hosts["claude"].Generated.MCP["tausik"]; mcp != `{"args":["mcp"],"command":"tausik"}` {
		t.Errorf("claude's MCP registration from .mcp.json: %q", mcp)
	}

	dec, err := e.Evaluate(context.Background(), Request{Trigger: "commit", Gates: []string{"cross_model_parity"}})
	if err != nil {
		t.Fatal(err)
	}
	v := dec.Gates[0]
	var ids []string
	idRE := regexp.MustCompile(`(?m)^  (\S+) \(`)
	for _, viol := range v.Violations {
		for _, m := range idRE.FindAllStringSubmatch(viol.Msg, -1) {
			ids = append(ids, m[1])
		}
	}
	slices.Sort(ids)
	if v.Outcome != Failed || !slices.Equal(ids, want.Differences) {
		t.Errorf("cross_model_parity: %s with differences\n %v\nwant\n %v", v.Outcome, ids, want.Differences)
	}
	if len(want.Differences) != 4 || !strings.HasPrefix(want.Differences[0], "matcher:hook:PostToolUse:") {
		t.Errorf("the layout should differ in exactly four PostToolUse matchers, the reading says %v", want.Differences)
	}
}
