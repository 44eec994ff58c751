package command

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// DefaultExclude is what the built-in linters (ruff, mypy, bandit) leave out
// of {files} unless the config says otherwise: test data, which by convention
// holds deliberately broken inputs (Go tooling ignores testdata/ too), and the
// trees of tausik gate fixtures, which hold the violations a gate must catch.
var DefaultExclude = []string{"testdata/", "**/fixtures/*/tree/"}

// exclusion is one compiled Spec.Exclude pattern. The language is a small
// subset of .gitignore's: "*" and "?" stay inside one path segment, "**"
// spans segments; a trailing "/" makes the pattern match directories (and so
// everything below them); a pattern with no "/" before its end matches at any
// depth, one with a "/" is anchored at the root (a leading "/" only anchors).
type exclusion struct {
	glob     string
	dir      bool
	anchored bool
}

// compileExclude checks patterns and returns them compiled.
func compileExclude(patterns []string) ([]exclusion, error) {
	out := make([]exclusion, 0, len(patterns))
	for _, p := range patterns {
		e := exclusion{glob: p}
		if strings.HasSuffix(e.glob, "/") {
			e.dir, e.glob = true, strings.TrimSuffix(e.glob, "/")
		}
		if strings.HasPrefix(e.glob, "/") {
			e.anchored, e.glob = true, strings.TrimPrefix(e.glob, "/")
		}
		e.anchored = e.anchored || strings.Contains(e.glob, "/")
		if e.glob == "" || strings.Contains(e.glob, `\`) || strings.HasPrefix(e.glob, "/") || strings.HasSuffix(e.glob, "/") ||
			strings.Contains(e.glob, "//") || !doublestar.ValidatePattern(e.glob) {
			return nil, fmt.Errorf("%w: exclude pattern %q is not a valid glob", ErrBadSpec, p)
		}
		out = append(out, e)
	}
	return out, nil
}

// excluded reports whether the repo-relative, "/"-separated path rel is left
// out by any of es.
func excluded(es []exclusion, rel string) bool {
	if len(es) == 0 {
		return false
	}
	segs := strings.Split(rel, "/")
	for _, e := range es {
		if e.match(segs) {
			return true
		}
	}
	return false
}

func (e exclusion) match(segs []string) bool {
	last := len(segs) // candidates: the whole path, or only its directories
	if e.dir {
		last = len(segs) - 1
	}
	if !e.anchored {
		for i := range last {
			if ok, _ := doublestar.Match(e.glob, segs[i]); ok {
				return true
			}
		}
		return false
	}
	for i := 1; i <= last; i++ {
		if ok, _ := doublestar.Match(e.glob, strings.Join(segs[:i], "/")); ok {
			return true
		}
	}
	return false
}
