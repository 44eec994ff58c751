package mcp

import (
	"context"
	"encoding/json"
	"github.com/tausik/tausik/internal/project"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/internal/app/live"
)

// TestLiveServerAnswersFromTheConfigOnDisk drives the server in-process
// over a live.Source: a tightened, then loosened filesize limit shows in the
// next policy_eval, and a broken config is a tool error with file:line.
func TestLiveServerAnswersFromTheConfigOnDisk(t *testing.T) {
	root := testProject(t, map[string]string{"big.py": strings.Repeat("x = 1\n", 300)})
	src, err := live.Open(context.Background(), project.Setup{Root: root, Getenv: func(k string) string {
		if k == "HOME" {
			return root
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	s := NewWith(src, "test")
	eval := func() (bool, string) {
		t.Helper()
		got := rpc(t, s, initLine, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"policy_eval","arguments":{"trigger":"commit","gates":["filesize"]}}}`)
		var r struct {
			Result struct {
				IsError bool `json:"isError"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"result"`
		}
		if err := json.Unmarshal(got["2"], &r); err != nil {
			t.Fatal(err)
		}
		return r.Result.IsError, r.Result.Content[0].Text
	}
	config := filepath.Join(root, "tausik", "gates.json")
	os.MkdirAll(filepath.Dir(config), 0o755)
	for _, step := range []struct{ config, want string }{
		{`{"gates": {"filesize": {"params": {"max_lines": 100}}}}`, `"outcome":"FAILED"`},
		{`{"gates": {"filesize": {"params": {"max_lines": 400}}}}`, `"outcome":"PASSED"`},
		{"{\n  \"gates\": [\n  ]\n}", "tausik/gates.json:2"},
	} {
		if err := os.WriteFile(config, []byte(step.config), 0o644); err != nil {
			t.Fatal(err)
		}
		isErr, text := eval()
		if !strings.Contains(text, step.want) || isErr != strings.HasPrefix(step.want, "tausik/") {
			t.Errorf("config %s: isError %v, %s", step.config, isErr, text)
		}
	}
}
