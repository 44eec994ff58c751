package engine

import (
	"fmt"
	"os"
	"strings"

	"github.com/tausik/tausik/runners/command"
	"github.com/tausik/tausik/runners/mcpsurface"
)

// MCPSurfaceGate is the gate whose param "server" names the MCP server the
// mcp runner starts.
const MCPSurfaceGate = "mcp_surface"

// SelfExecutable in a server argv stands for the running tausik binary, so a
// repository can ratchet tausik's own MCP surface without allow-listing
// anything.
const SelfExecutable = "{tausik}"

// registerMCPSurface configures the mcp runner from mcp_surface's effective
// "server" param. Starting a server runs a program, so, as for command gates,
// its executable must be tausik itself or on the allow-list that only the user
// and managed tiers can extend.
func (e *Engine) registerMCPSurface(tiers []*tierFile) error {
	g, ok := e.byName[MCPSurfaceGate]
	if !ok {
		return nil
	}
	argv := stringsOf(e.eff[g.Name].Params["server"])
	if len(argv) == 0 {
		return nil
	}
	var opts []mcpsurface.Option
	switch {
	case argv[0] == SelfExecutable:
		self, err := os.Executable()
		if err != nil {
			return fmt.Errorf("%w: locate the tausik binary for %s: %v", ErrConfig, SelfExecutable, err)
		}
		argv = append([]string{self}, argv[1:]...)
		if id, ok := binaryIdentity(); ok && e.store != nil {
			opts = append(opts, mcpsurface.WithFixedServer(e.store, id))
		}
	case !command.AllowedArgv(argv, e.Allowlist()):
		file, line := "gate defaults", 0
		if f, l, ok := paramSetter(tiers, g.Name, e.eff[g.Name], "server"); ok {
			file, line = f, l
		}
		d := &Diagnostics{Kind: ErrConfig}
		d.Add(file, line, "gates.%s.params.server: `%s` is neither %s nor starts with an allowed command (%s); add its prefix to %s in the user or managed tier",
			g.Name, strings.Join(argv, " "), SelfExecutable, command.FormatAllowed(e.Allowlist()), keyAllowCommands)
		return d
	}
	e.runners = e.runners.With(mcpsurface.New(argv, 0, opts...))
	return nil
}

func stringsOf(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
