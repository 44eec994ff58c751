// Package mcp serves tausik's engine to AI coding agents over the Model
// Context Protocol (stdio). It declares tools, checks their arguments
// strictly, calls the same engine functions as the CLI and renders the
// results; it holds no rule of its own.
//
// The tool list is part of every agent turn's prompt, so it is byte-stable:
// tools in a fixed order, descriptions and schemas free of dates, versions,
// counts or configuration, identical across processes and machines. A golden
// file pins it (testdata/tools_list.golden.json).
package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/tausik/tausik/engine"
)

// ServerName is what the server calls itself in the initialize handshake.
const ServerName = "tausik"

// tool is one MCP tool: its surface (name, description, argument spec,
// output schema, hints) and its handler.
type tool struct {
	name        string
	title       string
	description string
	args        []arg
	output      json.RawMessage
	readOnly    bool
	destructive bool
	idempotent  bool
	// handle returns the structured result. A *refusal is a business
	// outcome (a gate blocked, no such task) shown to the agent as a tool
	// result with isError; any other error is a failure of tausik itself.
	handle func(ctx context.Context, e *engine.Engine, a args) (any, error)
}

// refusal is a business "no" with the reason and what to do about it.
type refusal struct {
	msg    string
	result any // optional structured detail, e.g. the decision
}

func (r *refusal) Error() string { return r.msg }

// Engines gives each tool call the engine to answer from, and notices to
// add to its result. An error means there is no engine to trust (the
// configuration on disk does not load): the call is a tool error naming it.
type Engines interface {
	Engine(ctx context.Context) (*engine.Engine, []string, error)
}

// static is one engine for the server's life.
type static struct{ e *engine.Engine }

func (s static) Engine(context.Context) (*engine.Engine, []string, error) { return s.e, nil, nil }

// Server is tausik's MCP server.
type Server struct {
	engines Engines
	mcp     *server.MCPServer
}

// New returns a server whose tools call e for its whole life.
func New(e *engine.Engine, version string) *Server { return NewWith(static{e}, version) }

// NewWith returns a server whose tools ask src for the engine before each
// call (live.Source: the configuration on disk now). Policies are prepared
// once per engine, so a server whose files do not change prepares them once.
func NewWith(src Engines, version string) *Server {
	s := &Server{engines: src}
	s.mcp = server.NewMCPServer(ServerName, version,
		server.WithToolCapabilities(false),
		server.WithRecovery(),
		server.WithOutputSchemaValidation(),
		server.WithInstructions("tausik judges code changes with declarative gates. Call policy_eval with "+
			"trigger pre-write before writing files and task-done before closing a task; a result with "+
			"blocked=true means do not proceed until the listed violations are fixed."),
	)
	for _, t := range tools() {
		s.mcp.AddTool(t.mcpTool(), s.handler(t))
	}
	return s
}

// MCPServer exposes the underlying mcp-go server (for in-process clients).
func (s *Server) MCPServer() *server.MCPServer { return s.mcp }

// Serve speaks MCP over in and out until ctx ends or in closes.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	return server.NewStdioServer(s.mcp).Listen(ctx, in, out)
}

func (t tool) mcpTool() mcpgo.Tool {
	return mcpgo.Tool{
		Name:            t.name,
		Description:     t.description,
		RawInputSchema:  inputSchema(t.args),
		RawOutputSchema: t.output,
		Annotations: mcpgo.ToolAnnotation{
			Title:           t.title,
			ReadOnlyHint:    mcpgo.ToBoolPtr(t.readOnly),
			DestructiveHint: mcpgo.ToBoolPtr(t.destructive),
			IdempotentHint:  mcpgo.ToBoolPtr(t.idempotent),
			OpenWorldHint:   mcpgo.ToBoolPtr(false),
		},
	}
}

// handler adapts a tool to mcp-go: strict arguments, then the handler, then
// the result as structuredContent plus the same JSON as text.
func (s *Server) handler(t tool) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		a, err := parseArgs(t.name, t.args, req.Params.Arguments)
		if err != nil {
			return mcpgo.NewToolResultError(err.Error()), nil
		}
		e, notices, err := s.engines.Engine(ctx)
		if err != nil {
			return withNotices(mcpgo.NewToolResultError(fmt.Sprintf("%s: %v", t.name, err)), notices), nil
		}
		out, err := t.handle(ctx, e, a)
		var r *refusal
		switch {
		case errors.As(err, &r):
			res := mcpgo.NewToolResultError(r.msg)
			if r.result != nil {
				res.StructuredContent = r.result
			}
			return withNotices(res, notices), nil
		case err != nil:
			return withNotices(mcpgo.NewToolResultError(fmt.Sprintf("%s failed: %v", t.name, err)), notices), nil
		}
		text, err := json.Marshal(out)
		if err != nil {
			return mcpgo.NewToolResultError(fmt.Sprintf("%s: encode result: %v", t.name, err)), nil
		}
		return withNotices(mcpgo.NewToolResultStructured(out, string(text)), notices), nil
	}
}

// withNotices adds each notice as a text item after the result's own
// content: the result's JSON stays as its schema says, and the tool list
// stays byte-stable, while the agent still reads what it must know.
func withNotices(res *mcpgo.CallToolResult, notices []string) *mcpgo.CallToolResult {
	for _, n := range notices {
		res.Content = append(res.Content, mcpgo.NewTextContent("tausik notice: "+n))
	}
	return res
}

// requester names the calling client for the decision log: "mcp:<client>".
func requester(ctx context.Context) string {
	name := "unknown"
	if cs, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		if n := cs.GetClientInfo().Name; n != "" {
			name = n
		}
	}
	return "mcp:" + name
}
