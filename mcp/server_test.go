package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/tausik/tausik/internal/project"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/tausik/tausik/engine"
)

var update = flag.Bool("update", false, "rewrite testdata/tools_list.golden.json")

// goldenFile pins the exact bytes of the tools/list result.
const goldenFile = "testdata/tools_list.golden.json"

func TestMain(m *testing.M) {
	if os.Getenv("TAUSIK_MCP_PRINT_TOOLS") == "1" {
		b, err := toolsListBytes(context.Background(), os.Getenv("TAUSIK_MCP_ROOT"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Stdout.Write(b)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// testProject writes a small project and returns its root.
func testProject(t testing.TB, files map[string]string) string {
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func openEngine(t testing.TB, root string) *engine.Engine {
	e, err := project.Open(context.Background(), project.Setup{Root: root, Getenv: func(k string) string {
		if k == "HOME" {
			return root
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// rpc drives a server over in-memory stdio and returns each response line by id.
func rpc(t testing.TB, s *Server, lines ...string) map[string]json.RawMessage {
	t.Helper()
	got, err := rpcRaw(s, lines...)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func rpcRaw(s *Server, lines ...string) (map[string]json.RawMessage, error) {
	inR, inW := io.Pipe()
	var out bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	outW := &lockedWriter{w: &out}
	go func() { done <- s.Serve(ctx, inR, outW) }()
	for _, l := range lines {
		if _, err := io.WriteString(inW, l+"\n"); err != nil {
			inW.Close()
			return nil, err
		}
	}
	want := 0
	for _, l := range lines {
		if strings.Contains(l, `"id"`) {
			want++
		}
	}
	got := map[string]json.RawMessage{}
	for deadline := 0; len(got) < want && deadline < 2000; deadline++ {
		sc := bufio.NewScanner(bytes.NewReader(outW.bytes()))
		sc.Buffer(nil, 1<<22)
		for sc.Scan() {
			var msg struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(sc.Bytes(), &msg) == nil && msg.ID != nil {
				got[string(msg.ID)] = append(json.RawMessage(nil), sc.Bytes()...)
			}
		}
		if len(got) < want {
			waitABit()
		}
	}
	cancel()
	inW.Close()
	<-done
	if len(got) < want {
		return nil, fmt.Errorf("got %d responses, want %d:\n%s", len(got), want, outW.bytes())
	}
	return got, nil
}

const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"golden","version":"1"}}}`

// toolsListBytes returns the exact "result" bytes of tools/list for a server
// over the project at root (a fresh temp project when root is "").
func toolsListBytes(ctx context.Context, root string) ([]byte, error) {
	var e *engine.Engine
	var err error
	if root == "" {
		if root, err = os.MkdirTemp("", "tausik-mcp-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(root)
	}
	e, err = project.Open(ctx, project.Setup{Root: root, Getenv: func(string) string { return "" }, NoStore: true})
	if err != nil {
		return nil, err
	}
	defer e.Close()
	resp, err := rpcRaw(New(e, "golden"), initLine,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if err != nil {
		return nil, err
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(resp["2"], &msg); err != nil {
		return nil, err
	}
	return append(msg.Result, '\n'), nil
}

// TestToolsListGolden pins tools/list byte for byte, and checks that a
// second process over a differently configured project yields the same
// bytes: the list an agent host caches must not depend on config or process.
func TestToolsListGolden(t *testing.T) {
	got, err := toolsListBytes(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(goldenFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatalf("%v (regenerate on purpose with: go test ./mcp -run TestToolsListGolden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("tools/list changed; if that is on purpose, regenerate with -update.\ngot:  %s\nwant: %s", got, want)
	}
	other := testProject(t, map[string]string{
		"tausik/gates.json": `{"gates": {"tdd_order": {"enabled": true}}}`,
		"tausik/policies/team_gate/gate.yaml": "name: team_gate\ndescription: a team gate in this project\nprevents: something the team objects to\n" +
			"phase: scoped\ntriggers: [commit]\nseverity: warn\nenabled: true\nlanguage: cel\nfacts: [files]\n",
		"tausik/policies/team_gate/policy.cel.yaml": "violations:\n  - rule: r\n    expr: '[]'\n",
		"tausik/policies/team_gate/excused.yaml":    "reason: only here to change the configuration of the project\nred_test: TestA\ngreen_test: TestB\n",
	})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "TAUSIK_MCP_PRINT_TOOLS=1", "TAUSIK_MCP_ROOT="+other)
	sub, err := cmd.Output()
	if err != nil {
		t.Fatalf("second process: %v", err)
	}
	if !bytes.Equal(sub, want) {
		t.Fatalf("a second process over another project listed different bytes:\n%s", sub)
	}
	var list mcpgo.ListToolsResult
	if err := json.Unmarshal(want, &list); err != nil {
		t.Fatal(err)
	}
	// The count and size are ratcheted by the mcp_surface gate against the
	// baselines in tausik/gates.json, which `make test` runs on this repo.
	for i, tl := range list.Tools {
		a := tl.Annotations
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil {
			t.Errorf("%s: all four annotation hints must be set", tl.Name)
		}
		if i > 0 && list.Tools[i-1].Name >= tl.Name {
			t.Errorf("tools out of order at %s", tl.Name)
		}
	}
}

// inProcess returns an initialized in-process client over a server for root.
func inProcess(t *testing.T, root string) *client.Client {
	t.Helper()
	s := New(openEngine(t, root), "test")
	c, err := client.NewInProcessClient(s.MCPServer())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	req := mcpgo.InitializeRequest{}
	req.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcpgo.Implementation{Name: "unit-test", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	return c
}

func call(t *testing.T, c *client.Client, name string, args any) *mcpgo.CallToolResult {
	t.Helper()
	req := mcpgo.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: protocol error %v (business failures must be tool results)", name, err)
	}
	return res
}

func text(res *mcpgo.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcpgo.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
