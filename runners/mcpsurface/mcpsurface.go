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
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = "mcp"

// DefaultTimeout bounds starting the server and reading its tool list.
const DefaultTimeout = 15 * time.Second

// Runner gathers the "mcp" namespace from one server command.
type Runner struct {
	argv     []string
	timeout  time.Duration
	st       Store
	identity string
}

// Store is the part of *store.Store the runner keeps measures in.
type Store interface {
	CacheGetMany(ctx context.Context, runner, version string, shas []string) (map[string]json.RawMessage, error)
	CachePutMany(ctx context.Context, entries []store.CacheEntry) error
}

// Option tunes a Runner at construction.
type Option func(*Runner)

// WithFixedServer declares that the server is a build whose tool list is
// fixed when it is built, identified by identity (tausik itself: its tool list
// carries no configuration-dependent text, as the README's MCP paragraph
// promises). Its measure is then kept in st and the server started again only when identity or argv
// change.
func WithFixedServer(st Store, identity string) Option {
	return func(r *Runner) { r.st, r.identity = st, identity }
}

// New returns a runner that starts argv (nil: no server is configured, and
// the namespace is unavailable).
func New(argv []string, timeout time.Duration, opts ...Option) *Runner {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	r := &Runner{argv: argv, timeout: timeout}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Namespace implements runners.Runner.
func (*Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner.
func (r *Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	if len(r.argv) == 0 {
		return facts.Unavailable("no MCP server is configured (mcp_surface param server)")
	}
	if m, ok := r.kept(ctx); ok {
		return facts.OK(m)
	}
	m, err := r.measure(ctx, s.Root)
	if err != nil {
		return facts.Error(err.Error())
	}
	r.keep(ctx, m)
	return facts.OK(m)
}

// measure starts the server in dir and measures its tool list.
func (r *Runner) measure(ctx context.Context, dir string) (facts.MCPSurface, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	list, err := toolsList(ctx, r.argv, dir)
	if err != nil {
		return facts.MCPSurface{}, fmt.Errorf("%s: %v", strings.Join(r.argv, " "), err)
	}
	var parsed struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(list, &parsed); err != nil {
		return facts.MCPSurface{}, fmt.Errorf("tools/list result: %v", err)
	}
	names := make([]string, len(parsed.Tools))
	for i, t := range parsed.Tools {
		names[i] = t.Name
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, list); err != nil {
		return facts.MCPSurface{}, fmt.Errorf("tools/list result: %v", err)
	}
	return facts.MCPSurface{Server: r.argv, Tools: len(names), Bytes: compact.Len(), Names: names}, nil
}

// cacheVersion versions the kept measures.
const cacheVersion = "1"

// cacheKey is where a fixed server's measure is kept: its identity and argv.
func (r *Runner) cacheKey() string {
	sum := sha256.Sum256([]byte(r.identity + "\x00" + strings.Join(r.argv, "\x00")))
	return hex.EncodeToString(sum[:])
}

// kept returns the measure kept for a fixed server, when there is one that
// checks out (it names this argv and counts its own names).
func (r *Runner) kept(ctx context.Context) (facts.MCPSurface, bool) {
	if r.st == nil {
		return facts.MCPSurface{}, false
	}
	key := r.cacheKey()
	got, err := r.st.CacheGetMany(ctx, Namespace, cacheVersion, []string{key})
	if err != nil {
		return facts.MCPSurface{}, false
	}
	raw, ok := got[key]
	if !ok {
		return facts.MCPSurface{}, false
	}
	var m facts.MCPSurface
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if dec.Decode(&m) != nil || !slices.Equal(m.Server, r.argv) || m.Tools != len(m.Names) || m.Bytes <= 0 {
		return facts.MCPSurface{}, false
	}
	return m, true
}

// keep stores a fixed server's measure; failing to only costs the next
// evaluation a server start.
func (r *Runner) keep(ctx context.Context, m facts.MCPSurface) {
	if r.st == nil {
		return
	}
	raw, err := json.Marshal(m)
	if err == nil {
		_ = r.st.CachePutMany(ctx, []store.CacheEntry{{Key: store.CacheKey{Runner: Namespace, Version: cacheVersion, SHA256: r.cacheKey()}, Value: raw}})
	}
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
