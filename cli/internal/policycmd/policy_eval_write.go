package policycmd

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/render"
)

// checkWrites checks each --write value is FORMAT=FILE with a known
// format and a file named.
func checkWrites(writes []string) error {
	for _, w := range writes {
		format, file, ok := strings.Cut(w, "=")
		if !ok || file == "" {
			return cmdbase.UsageErr(fmt.Errorf("--write %q: want FORMAT=FILE", w))
		}
		if !slices.Contains(render.Formats, format) {
			return cmdbase.UsageErr(fmt.Errorf("--write %q: unknown format %q (want one of %s)", w, format, strings.Join(render.Formats, ", ")))
		}
	}
	return nil
}

// writeRenderings writes the decision in each --write format to its file;
// a file that cannot be written is exit 3, whatever the decision.
func writeRenderings(g *cmdbase.Globals, e *engine.Engine, writes []string, d *engine.Decision) error {
	for _, w := range writes {
		format, file, _ := strings.Cut(w, "=")
		var buf bytes.Buffer
		if err := render.Decision(&buf, format, d, render.OptionsOf(e, g.Getenv)); err != nil {
			return err
		}
		if err := cmdbase.WriteOut(g, file, buf.Bytes()); err != nil {
			return fmt.Errorf("--write %s: %w", w, err)
		}
	}
	return nil
}
