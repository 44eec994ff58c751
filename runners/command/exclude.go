package command

import (
	"fmt"

	"github.com/tausik/tausik/internal/pathpat"
)

// DefaultExclude is what the built-in linters (ruff, mypy, bandit) leave out
// of {files} unless the config says otherwise: test data, which by convention
// holds deliberately broken inputs (Go tooling ignores testdata/ too), and the
// trees of tausik gate fixtures, which hold the violations a gate must catch.
var DefaultExclude = []string{"**/testdata/", "**/fixtures/*/tree/"}

// compileExclude checks patterns (the path pattern language, package
// pathpat and docs/paths.md) and returns them compiled.
func compileExclude(patterns []string) (pathpat.Set, error) {
	s, err := pathpat.CompileAll(patterns)
	if err != nil {
		return nil, fmt.Errorf("%w: exclude: %w", ErrBadSpec, err)
	}
	return s, nil
}

// excluded reports whether the repo-relative, "/"-separated path rel is left
// out by any of es.
func excluded(es pathpat.Set, rel string) bool { return es.Match(rel) }
