package facts

// MCPSurface is the "mcp" namespace: the tool list of a configured MCP
// server, as an agent host receives it on every turn.
type MCPSurface struct {
	Server []string `json:"server"` // the argv that was started
	Tools  int      `json:"tools"`  // number of tools in tools/list
	Bytes  int      `json:"bytes"`  // size of the compact JSON of the tools/list result
	Names  []string `json:"names"`  // tool names in listed order
}
