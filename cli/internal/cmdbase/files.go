package cmdbase

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tausik/tausik/engine/diag"
)

// WriteOut writes data to the file named, or to stdout when none is.
func WriteOut(g *Globals, path string, data []byte) error {
	if path == "" {
		_, err := g.Stdout.Write(data)
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("%w: %v", diag.ErrConfig, err)
	}
	return nil
}

// ReadBundle reads the file a verify command checks, or stdin for "-"; a
// file that cannot be read is a usage error (exit 2), as both commands say.
func ReadBundle(g *Globals, file string) ([]byte, error) {
	var data []byte
	var err error
	if file == "-" {
		data, err = io.ReadAll(g.Stdin)
	} else {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return nil, UsageErr(fmt.Errorf("read %s: %w", file, err))
	}
	return data, nil
}

// AbsPaths resolves command-line paths against the working directory, which
// is where the user typed them, not the project root.
func AbsPaths(paths []string) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if p == "" {
			return nil, UsageErr(errors.New("--files: empty path"))
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("resolve %s: %w", p, err)
		}
		out = append(out, abs)
	}
	return out, nil
}
