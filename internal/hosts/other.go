package hosts

import (
	"encoding/json"
	"strings"

	"github.com/tausik/tausik/engine/toolcall"
	"github.com/tausik/tausik/facts"
)

// fetchTools are the hosts' web-fetch tools, whose input names the URL
// (Claude and Cursor WebFetch, Gemini, Qwen, Copilot and Cline web_fetch,
// OpenCode webfetch, Factory FetchUrl).
var fetchTools = map[string]bool{"WebFetch": true, "web_fetch": true, "webfetch": true, "FetchUrl": true}

// otherTool classifies a tool no table of the host lists: an MCP tool named
// mcp__SERVER__TOOL (Claude, Codex, Factory, Qwen, Gemini's mcp hooks), a
// web fetch, or other. None is judged by the pre-write gates as a write;
// the tool namespace shows what they carry.
func otherTool(c call, in map[string]any) call {
	c.kind, c.input = toolcall.KindOther, in
	if rest, ok := strings.CutPrefix(c.tool, "mcp__"); ok {
		if server, name, ok := strings.Cut(rest, "__"); ok && server != "" && name != "" {
			c.kind, c.mcp = toolcall.KindMCP, &facts.ToolMCP{Server: server, Tool: name, Args: args(in)}
		}
		return c
	}
	if fetchTools[c.tool] {
		if u, ok := firstStringAny(in, []string{"url", "uri"}); ok {
			c.kind, c.url = toolcall.KindFetch, u
		}
	}
	return c
}

// args is an MCP call's arguments, an object never null: an input given
// as the JSON text of an object (Cline, Cursor) is decoded.
func args(v any) map[string]any {
	switch a := v.(type) {
	case map[string]any:
		if a != nil {
			return a
		}
	case string:
		var m map[string]any
		if json.Unmarshal([]byte(a), &m) == nil && m != nil {
			return m
		}
	}
	return map[string]any{}
}

// subagentOf reads the sub-agent a Claude-shaped payload says made the
// call (agent_id, agent_type), nil when it names none.
func subagentOf(m map[string]any) *facts.ToolSubagent {
	id, typ := str(m, "agent_id"), str(m, "agent_type")
	if id == "" && typ == "" {
		return nil
	}
	return &facts.ToolSubagent{ID: id, Type: typ}
}
