# mcp_surface: the tool count and the serialized size of a configured MCP
# server's tools/list may not grow past their baselines, and a baseline above
# reality must be lowered: the ratchet only turns down.
package tausik.gates.mcp_surface

could_not_run contains {"code": "server_failed", "msg": input.mcp.reason} if input.mcp.status == "error"

not_applicable contains {"code": "no_server", "msg": input.mcp.reason} if input.mcp.status == "unavailable"

where := "in tausik/gates.json (gates.mcp_surface.params)"

measures := [
	{"key": "max_tools", "what": "tools", "now": input.mcp.tools, "base": input.params.max_tools},
	{"key": "max_bytes", "what": "bytes of tools/list", "now": input.mcp.bytes, "base": input.params.max_bytes},
]

violations contains v if {
	input.mcp.status == "ok"
	some m in measures
	m.base == 0
	v := {
		"msg": sprintf("no baseline for the MCP surface: set %s to %d %s", [m.key, m.now, where]),
		"rule": "no_baseline",
	}
}

violations contains v if {
	input.mcp.status == "ok"
	some m in measures
	m.base > 0
	m.now > m.base
	v := {
		"msg": sprintf("the MCP server grew to %d %s (baseline %d): every agent turn pays for it; shrink the tool list, or raise %s on purpose %s", [m.now, m.what, m.base, m.key, where]),
		"rule": "grew",
	}
}

violations contains v if {
	input.mcp.status == "ok"
	some m in measures
	m.now < m.base
	v := {
		"msg": sprintf("the MCP server now has %d %s, below the baseline %d: lower %s to %d %s (the ratchet only turns down)", [m.now, m.what, m.base, m.key, m.now, where]),
		"rule": "stale_baseline",
	}
}
