package hosts

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tausik/tausik/engine"
)

// A long command is shortened in the refusal on a rune boundary, so the
// reason stays valid UTF-8 for a JSON host.
func TestReasonCutsLongCommandOnARune(t *testing.T) {
	cmd := strings.Repeat("a", 119) + "é" + strings.Repeat("b", 50) // é spans bytes 119-120
	got := reason(engine.ToolCall{Tool: "Bash", Kind: engine.KindShell, Command: cmd}, &engine.Decision{ID: "d1"})
	if !utf8.ValidString(got) {
		t.Fatalf("reason is not valid UTF-8: %q", got)
	}
	if want := "Bash " + strings.Repeat("a", 119) + "…\n(decision d1)"; got != want {
		t.Errorf("reason = %q, want %q", got, want)
	}
}
