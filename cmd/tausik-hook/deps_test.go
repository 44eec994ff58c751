package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The thin client links none of the engine (no OPA, CEL, SQLite or MCP
// library): on every platform tausik ships for, its dependencies outside
// the standard library are the hook protocol and, on macOS, x/sys/unix for
// the peer check.
func TestClientLinksNoEngine(t *testing.T) {
	allowed := map[string]bool{"github.com/tausik/tausik/cmd/tausik-hook": true, "github.com/tausik/tausik/internal/hookwire": true, "golang.org/x/sys/unix": true}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".")
		cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("GOOS=%s go list: %v", goos, err)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 2 {
			t.Fatalf("GOOS=%s: go list named %q", goos, deps)
		}
		for _, d := range deps {
			if !allowed[d] {
				t.Errorf("GOOS=%s: tausik-hook links %s", goos, d)
			}
		}
	}
}
