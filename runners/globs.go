package runners

import (
	"context"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// ValidGlob reports whether g is a glob a gate may declare: doublestar
// syntax ("**" spans directories, "*" does not), "/"-separated, relative,
// without empty segments.
func ValidGlob(g string) bool {
	return g != "" && !strings.HasPrefix(g, "/") && !strings.Contains(g, "//") && !strings.Contains(g, `\`) &&
		doublestar.ValidatePattern(g)
}

// MatchAny reports whether the repo-relative, "/"-separated path p matches
// one of globs.
func MatchAny(globs []string, p string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, p); ok {
			return true
		}
	}
	return false
}

// GlobbedFiles returns the files in s's scope (Scope.ScopedFiles) that match
// one of the globs s holds for namespace ns: none when no gate declared a
// glob for it.
func (s *Scope) GlobbedFiles(ctx context.Context, ns string) ([]string, error) {
	globs := s.Globs[ns]
	if len(globs) == 0 {
		return nil, nil
	}
	all, err := s.ScopedFiles(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range all {
		if MatchAny(globs, p) {
			out = append(out, p)
		}
	}
	return out, nil
}
