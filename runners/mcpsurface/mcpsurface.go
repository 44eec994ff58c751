// Package mcpsurface is the runner for the "mcp" namespace: it starts a
// configured MCP server over stdio, asks for its tool list, and reports how
// many tools it offers and how many bytes the list costs. An agent host
// resends that list on every turn, so its size is a budget; the mcp_surface
// gate ratchets it.
package mcpsurface

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = "mcp"

// DefaultTimeout bounds starting the server and reading its tool list.
const DefaultTimeout = 15 * time.Second

// Runner gathers the "mcp" namespace from one server command.
type Runner struct {
	argv    []string
	timeout time.Duration
}

// New returns a runner that starts argv (nil: no server is configured, and
// the namespace is unavailable).
func New(argv []string, timeout time.Duration) *Runner {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &Runner{argv: argv, timeout: timeout}
}

// Namespace implements runners.Runner.
func (*Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner.
func (r *Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	if len(r.argv) == 0 {
		return facts.Unavailable("no MCP server is configured (mcp_surface param server)")
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	list, err := toolsList(ctx, r.argv, s.Root)
	if err != nil {
		return facts.Error(fmt.Sprintf("%s: %v", strings.Join(r.argv, " "), err))
	}
	var parsed struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(list, &parsed); err != nil {
		return facts.Error(fmt.Sprintf("tools/list result: %v", err))
	}
	names := make([]string, len(parsed.Tools))
	for i, t := range parsed.Tools {
		names[i] = t.Name
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, list); err != nil {
		return facts.Error(fmt.Sprintf("tools/list result: %v", err))
	}
	return facts.OK(facts.MCPSurface{Server: r.argv, Tools: len(names), Bytes: compact.Len(), Names: names})
}

// toolsList starts argv in dir, performs the MCP handshake and returns the
// raw "result" of tools/list.
func toolsList(ctx context.Context, argv []string, dir string) (json.RawMessage, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	runners.Contain(cmd)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	waited := false
	wait := func() {
		if !waited {
			waited = true
			stdin.Close()
			_ = cmd.Cancel() // the server and whatever it started
			_ = cmd.Wait()   // after Wait, stderr is complete and no longer written
		}
	}
	defer wait()
	msgs := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"tausik-mcp-surface","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
	}
	if _, err := stdin.Write([]byte(strings.Join(msgs, "\n") + "\n")); err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || string(msg.ID) != "2" {
			continue
		}
		if msg.Error != nil {
			return nil, fmt.Errorf("tools/list: %s", msg.Error.Message)
		}
		return msg.Result, nil
	}
	wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("no tools/list answer: %w", err)
	}
	return nil, errors.New("the server exited without answering tools/list: " + strings.TrimSpace(stderr.String()))
}
