package hostinit

// Wiring is one file init writes for a host: the host's hooks, plugin or
// MCP registration. Rel is relative to the project root, "/"-separated.
type Wiring struct {
	Host string
	Rel  string
}

// WiringFiles lists every file init may write for any host, each spelling
// of it (opencode.json and opencode.jsonc) included, in Hosts order. It is
// the one list of the hook wiring an agent must not rewrite: whoever edits
// it decides which calls are judged at all.
func WiringFiles() []Wiring {
	var out []Wiring
	for _, h := range Hosts {
		for _, f := range h.files(commands{run: DefaultCommand, hook: DefaultCommand}) {
			out = append(out, Wiring{Host: h.Name, Rel: f.rel})
			if f.alt != "" {
				out = append(out, Wiring{Host: h.Name, Rel: f.alt})
			}
		}
	}
	return out
}
