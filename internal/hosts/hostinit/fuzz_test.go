package hostinit

import (
	"bytes"
	"testing"

	"github.com/tailscale/hujson"
)

// FuzzMerge feeds arbitrary bytes to every JSON and TOML merge as an
// existing host file. A merge never panics; what it accepts it turns into a
// file that parses and is a fixed point (merging again changes no byte).
func FuzzMerge(f *testing.F) {
	for _, seed := range []string{
		"", "{}", "[]", "null", "{\"hooks\": {}}", "{\"hooks\": []}",
		"// c\n{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"command\": \"tausik hook claude pre-tool-use\"}]},],},}",
		"{\"hooks\": {\"preToolUse\": [{\"command\": \"tausik hook cursor pre-tool-use\"}, 1, \"x\"]}}",
		"{\"mcpServers\": {\"tausik\": 3}}", "{\"mcp\": []}",
		"model = \"o3\"\n[mcp_servers.tausik]\ncommand = \"x\"\n", "[mcp_servers]\ntausik = {command = \"x\"}\n",
	} {
		f.Add([]byte(seed))
	}
	var gens []fileGen
	for _, h := range Hosts {
		for _, g := range h.files(commands{run: DefaultCommand, hook: DefaultCommand}) {
			if g.mode&0o111 == 0 {
				gens = append(gens, g)
			}
		}
	}
	f.Fuzz(func(t *testing.T, old []byte) {
		for _, g := range gens {
			out, err := g.gen(g.rel, old, true)
			if err != nil {
				continue
			}
			if bytes.HasSuffix([]byte(g.rel), []byte(".json")) || bytes.HasSuffix([]byte(g.rel), []byte(".jsonc")) {
				if _, err := hujson.Parse(out); err != nil {
					t.Fatalf("%s: merged file does not parse: %v\n%s", g.rel, err, out)
				}
			}
			again, err := g.gen(g.rel, out, true)
			if err != nil || !bytes.Equal(again, out) {
				t.Fatalf("%s: not a fixed point (%v):\n%s\n---\n%s", g.rel, err, out, again)
			}
		}
	})
}
