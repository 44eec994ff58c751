package runners

import (
	"context"
	"slices"
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

// FixtureTree is the glob of the trees of gate fixtures
// (tausik/policies/<gate>/fixtures/<case>/tree/): small projects written to
// hold the violations a gate must catch, never the project's own code.
const FixtureTree = "**/fixtures/*/tree/**"

// InFixtureTree reports whether the repo-relative, "/"-separated path p lies
// in the tree of a gate fixture.
func InFixtureTree(p string) bool {
	ok, _ := doublestar.Match(FixtureTree, p)
	return ok
}

// GlobbedFiles returns the files in s's scope (Scope.ScopedFiles) that match
// one of the globs s holds for namespace ns: none when no gate declared a
// glob for it. A file in the tree of a gate fixture is never one of them,
// as the built-in gates leave those trees out: a team gate copied with its
// fixtures into tausik/policies must not judge the violations its own
// fixtures hold. (A fixture run scans the fixture's tree as its root, so
// its paths do not lie in a fixture tree.)
func (s *Scope) GlobbedFiles(ctx context.Context, ns string) ([]string, error) {
	globs := s.Globs[ns]
	var out []string
	if len(globs) > 0 {
		all, err := s.ScopedFiles(ctx)
		if err != nil {
			return nil, err
		}
		for _, p := range all {
			if MatchAny(globs, p) && !InFixtureTree(p) {
				out = append(out, p)
			}
		}
	}
	if tg := s.ToolGlobs[ns]; len(tg) > 0 && s.Tool != nil {
		all, err := s.RepoFiles(ctx)
		if err != nil {
			return nil, err
		}
		for _, p := range all {
			if MatchAny(tg, p) && !InFixtureTree(p) && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
		slices.Sort(out)
	}
	return out, nil
}
