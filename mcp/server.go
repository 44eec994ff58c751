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
	handle func(ctx context.Context, s *Server, a args) (any, error)
}

// refusal is a business "no" with the reason and what to do about it.
type refusal struct {
	msg    string
	result any // optional structured detail, e.g. the decision
}

func (r *refusal) Error() string { return r.msg }

// Server is tausik's MCP server over one engine.
type Server struct {
	engine *engine.Engine
	mcp    *server.MCPServer
}

// New returns a server whose tools call e. The engine is shared by every
// call, so policies are prepared once per process.
func New(e *engine.Engine, version string) *Server {
	s := &Server{engine: e}
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
		out, err := t.handle(ctx, s, a)
		var r *refusal
		switch {
		case errors.As(err, &r):
			res := mcpgo.NewToolResultError(r.msg)
			if r.result != nil {
				res.StructuredContent = r.result
			}
			return res, nil
		case err != nil:
			return mcpgo.NewToolResultError(fmt.Sprintf("%s failed: %v", t.name, err)), nil
		}
		text, err := json.Marshal(out)
		if err != nil {
			return mcpgo.NewToolResultError(fmt.Sprintf("%s: encode result: %v", t.name, err)), nil
		}
		return mcpgo.NewToolResultStructured(out, string(text)), nil
	}
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
