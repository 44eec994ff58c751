package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMCPWithTypeScriptSDK runs `tausik mcp` as a subprocess under the
// official MCP TypeScript SDK client (testdata/mcpclient, pinned by its
// lockfile): list tools, evaluate, and make erroneous calls, with every
// structuredContent validated against its outputSchema.
func TestMCPWithTypeScriptSDK(t *testing.T) {
	if _, err := os.Stat("testdata/mcpclient/node_modules/@modelcontextprotocol/sdk"); err != nil {
		t.Fatal("the MCP TypeScript SDK is not installed; run: npm ci --prefix testdata/mcpclient")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is not on PATH; it is needed to run the MCP TypeScript SDK client")
	}
	bin := buildBinary(t)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "big.py"), []byte(strings.Repeat("x = 1\n", 600)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "small.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "testdata/mcpclient/e2e.mjs", bin, root)
	cmd.Env = append(os.Environ(), "HOME="+root, "TAUSIK_USER_CONFIG=", "TAUSIK_MANAGED_CONFIG=")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("e2e client: %v\nstdout: %s\nstderr: %s", err, out, stderrOf(err))
	}
	var sum struct {
		Server     string   `json:"server"`
		Tools      []string `json:"tools"`
		EvalCommit struct {
			Blocked bool `json:"blocked"`
			Gates   []struct {
				Name       string `json:"name"`
				Outcome    string `json:"outcome"`
				Violations []struct {
					File string `json:"file"`
				} `json:"violations"`
			} `json:"gates"`
		} `json:"eval_commit"`
		EvalScoped struct {
			Blocked bool `json:"blocked"`
		} `json:"eval_scoped"`
		Bad, Missing struct {
			IsError bool   `json:"isError"`
			Text    string `json:"text"`
		}
		Problems []string `json:"problems"`
	}
	if err := json.Unmarshal(out, &sum); err != nil {
		t.Fatalf("summary: %v\n%s", err, out)
	}
	if sum.Server != "tausik" || !slices.Contains(sum.Tools, "policy_eval") || len(sum.Problems) > 0 {
		t.Errorf("summary = %s", out)
	}
	filesize := -1 // gates come sorted by name; find the one this checks
	for i, g := range sum.EvalCommit.Gates {
		if g.Name == "filesize" {
			filesize = i
		}
	}
	if !sum.EvalCommit.Blocked || filesize < 0 || sum.EvalCommit.Gates[filesize].Outcome != "FAILED" ||
		sum.EvalCommit.Gates[filesize].Violations[0].File != "big.py" || sum.EvalScoped.Blocked {
		t.Errorf("evaluations = %s", out)
	}
	if !sum.Bad.IsError || !strings.Contains(sum.Bad.Text, `unknown argument "bogus"`) || !sum.Missing.IsError {
		t.Errorf("erroneous calls = %+v %+v", sum.Bad, sum.Missing)
	}
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
