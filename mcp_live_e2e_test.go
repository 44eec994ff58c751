package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stdioClient speaks MCP's line-delimited JSON-RPC to a `tausik mcp`
// process, one call at a time, so the test can edit files between calls.
type stdioClient struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Scanner
	id  int
}

func (c *stdioClient) call(method string, params any) json.RawMessage {
	c.t.Helper()
	c.id++
	req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	if _, err := c.in.Write(append(req, '\n')); err != nil {
		c.t.Fatal(err)
	}
	for c.out.Scan() {
		var msg struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(c.out.Bytes(), &msg) != nil || msg.ID == nil || *msg.ID != c.id {
			continue
		}
		if msg.Error != nil {
			c.t.Fatalf("%s: %s", method, msg.Error)
		}
		return msg.Result
	}
	c.t.Fatalf("%s: no answer (%v)", method, c.out.Err())
	return nil
}

// tool calls a tool and returns isError, the first text content (the
// result's JSON, or the error) and every text after it (notices).
func (c *stdioClient) tool(name string, args map[string]any) (bool, string, []string) {
	c.t.Helper()
	var res struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(c.call("tools/call", map[string]any{"name": name, "arguments": args}), &res); err != nil {
		c.t.Fatal(err)
	}
	var notes []string
	for _, x := range res.Content[1:] {
		notes = append(notes, x.Text)
	}
	return res.IsError, res.Content[0].Text, notes
}

// TestMCPStdioReloadsConfigAndReportsReplacedBinary runs the built binary as
// an MCP server over real stdio and changes its project under it: each
// change shows in the very next verdict, a broken config is a tool error
// naming file:line, and replacing the binary on disk is reported, with the
// remedy, in session_status.
func TestMCPStdioReloadsConfigAndReportsReplacedBinary(t *testing.T) {
	built := buildBinary(t)
	bin := filepath.Join(t.TempDir(), "tausik")
	b, err := os.ReadFile(built)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	writeFile(t, root, "big.py", strings.Repeat("x = 1\n", 300))
	cmd := exec.Command(bin, "mcp")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "HOME="+root, "TAUSIK_USER_CONFIG=", "TAUSIK_MANAGED_CONFIG=")
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Wait() })
	sc := bufio.NewScanner(outPipe)
	sc.Buffer(nil, 1<<22)
	c := &stdioClient{t: t, in: in, out: sc}
	c.call("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "reload-e2e", "version": "1"}})
	if _, err := in.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")); err != nil {
		t.Fatal(err)
	}
	filesize := func() string {
		t.Helper()
		isErr, text, _ := c.tool("policy_eval", map[string]any{"trigger": "commit", "gates": []string{"filesize"}})
		if isErr {
			t.Fatalf("policy_eval: %s", text)
		}
		var r struct {
			Gates []struct{ Outcome string } `json:"gates"`
		}
		if err := json.Unmarshal([]byte(text), &r); err != nil || len(r.Gates) != 1 {
			t.Fatalf("policy_eval result %s: %v", text, err)
		}
		return r.Gates[0].Outcome
	}
	for _, step := range []struct{ config, want string }{
		{"", "PASSED"},
		{`{"gates": {"filesize": {"params": {"max_lines": 100}}}}`, "FAILED"},
		{`{"gates": {"filesize": {"params": {"max_lines": 400}}}}`, "PASSED"},
	} {
		if step.config != "" {
			writeFile(t, root, "tausik/gates.json", step.config)
		}
		if got := filesize(); got != step.want {
			t.Fatalf("config %q: filesize %s, want %s", step.config, got, step.want)
		}
	}
	writeFile(t, root, "tausik/gates.json", "{\n  \"gates\": {\"filesize\": {\"params\": {\"max_lines\": 100}}},\n  \"bogus\": 1\n}\n")
	isErr, text, _ := c.tool("policy_eval", map[string]any{"trigger": "commit", "gates": []string{"filesize"}})
	if !isErr || !strings.Contains(text, "tausik/gates.json:3") {
		t.Fatalf("broken config: isError %v, %s", isErr, text)
	}
	writeFile(t, root, "tausik/gates.json", `{"gates": {}}`)

	// A team policy edited under the running server judges the next call.
	scaffold := exec.Command(bin, "policy", "new", "mygate", "--lang", "rego")
	scaffold.Dir, scaffold.Env = root, cmd.Env
	if out, err := scaffold.CombinedOutput(); err != nil {
		t.Fatalf("policy new: %v\n%s", err, out)
	}
	mygate := func() string {
		t.Helper()
		isErr, text, _ := c.tool("policy_eval", map[string]any{"trigger": "commit", "gates": []string{"mygate"}})
		if isErr || !strings.Contains(text, `"name":"mygate"`) {
			t.Fatalf("policy_eval mygate: %s", text)
		}
		return text
	}
	if got := mygate(); !strings.Contains(got, `"outcome":"PASSED"`) {
		t.Fatalf("team gate as scaffolded: %s", got)
	}
	pol := filepath.Join(root, "tausik/policies/mygate/policy.rego")
	orig, _ := os.ReadFile(pol)
	writeFile(t, root, "tausik/policies/mygate/policy.rego", strings.Replace(string(orig), "f.size > input.params.max_bytes", "f.size > 10", 1))
	if got := mygate(); !strings.Contains(got, `"outcome":"FAILED"`) || !strings.Contains(got, "big.py") {
		t.Fatalf("team policy edited to flag files over 10 bytes: %s", got)
	}

	if _, _, notes := c.tool("session_status", map[string]any{}); len(notes) != 0 {
		t.Fatalf("notices before the binary changed: %v", notes)
	}
	if err := os.WriteFile(bin+".new", []byte("#!/bin/sh\necho a newer tausik\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(bin+".new", bin); err != nil {
		t.Fatal(err)
	}
	isErr, text, notes := c.tool("session_status", map[string]any{})
	if isErr || len(notes) != 1 || !strings.Contains(notes[0], "was replaced") || !strings.Contains(notes[0], "restart the host's MCP server") {
		t.Fatalf("session_status after the binary was replaced: isError %v, %s, notices %v", isErr, text, notes)
	}
	if got := filesize(); got != "PASSED" {
		t.Fatalf("the old binary still answers from today's config: %s", got)
	}
}

func writeFile(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(fmt.Errorf("write %s: %w", rel, err))
	}
}
