package config

import (
	"fmt"
	"os"
	"strings"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/runners/command"
)

// MCPSurfaceGate is the gate whose param "server" names the MCP server the
// mcp runner starts.
const MCPSurfaceGate = "mcp_surface"

// SelfExecutable in a server argv stands for the running tausik binary, so a
// repository can ratchet tausik's own MCP surface without allow-listing
// anything.
const SelfExecutable = "{tausik}"

// MCPServer resolves mcp_surface's effective "server" param (eff) to the
// argv the mcp runner starts, nil for none; self says it is the running
// tausik binary. Starting a server runs a program, so, as for command
// gates, its executable must be tausik itself or start with a prefix of
// allow, the allow-list that only the user and managed tiers can extend.
func MCPServer(tiers []*File, eff *Effective, allow [][]string) (argv []string, self bool, err error) {
	argv = Strings(eff.Params["server"])
	switch {
	case len(argv) == 0:
		return nil, false, nil
	case argv[0] == SelfExecutable:
		exe, err := os.Executable()
		if err != nil {
			return nil, false, fmt.Errorf("%w: locate the tausik binary for %s: %v", diag.ErrConfig, SelfExecutable, err)
		}
		return append([]string{exe}, argv[1:]...), true, nil
	case !command.AllowedArgv(argv, allow):
		file, line := "gate defaults", 0
		if f, l, ok := ParamSetter(tiers, MCPSurfaceGate, eff, "server"); ok {
			file, line = f, l
		}
		d := &diag.Diagnostics{Kind: diag.ErrConfig}
		d.Add(file, line, "gates.%s.params.server: `%s` is neither %s nor starts with an allowed command (%s); add its prefix to %s in the user or managed tier",
			MCPSurfaceGate, strings.Join(argv, " "), SelfExecutable, command.FormatAllowed(allow), KeyAllowCommands)
		return nil, false, d
	}
	return argv, false, nil
}

// Strings returns the strings of a list param's value v, skipping any
// other item.
func Strings(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
