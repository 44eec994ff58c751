package hostinit_test

import (
	"slices"
	"testing"

	"github.com/tausik/tausik/internal/hosts"
	"github.com/tausik/tausik/internal/hosts/hostinit"
)

// TestTurnWiringMatchesAdapters: what init wires for a grouped host's
// lifecycle events is exactly what its adapter answers, so no wired event
// meets `tausik hook` without a command, and none the adapter answers is
// left unwired.
func TestTurnWiringMatchesAdapters(t *testing.T) {
	for _, name := range []string{"claude", "codex", "factory", "qwen", "gemini"} {
		h, ok := hosts.Lookup(name)
		if !ok {
			t.Fatalf("no adapter %s", name)
		}
		for _, ours := range []string{hostinit.Stop, hostinit.SessionStart, hostinit.PromptSubmit} {
			if got, want := hostinit.TurnWired(name, ours), hosts.HostEvents(h, ours); !slices.Equal(got, want) {
				t.Errorf("%s %s: init wires %v, the adapter answers %v", name, ours, got, want)
			}
		}
	}
}
