package policycmd

import (
	"errors"
	"testing"

	"github.com/tausik/tausik/cli/internal/cmdbase"
)

// TestCheckWrites: --write takes FORMAT=FILE with a known format; anything
// else is a usage error (exit 2) before anything is evaluated.
func TestCheckWrites(t *testing.T) {
	if err := checkWrites([]string{"sarif=out.sarif", "markdown=a=b.md"}); err != nil {
		t.Errorf("valid --write values refused: %v", err)
	}
	for _, bad := range []string{"sarif", "sarif=", "=out", "pdf=out.pdf"} {
		err := checkWrites([]string{bad})
		var u cmdbase.UsageError
		if err == nil || !errors.As(err, &u) {
			t.Errorf("--write %q: err = %v, want a usage error", bad, err)
		}
	}
}
