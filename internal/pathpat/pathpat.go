// Package pathpat is the one pattern language of every path a gate's config
// names (exclusions, exemptions, allow lists): gitignore-like globs over
// repo-relative, "/"-separated paths, matched with doublestar. docs/paths.md
// is the user's description; this file is the implementation both the engine
// and the runners use, so a pattern means the same thing everywhere.
package pathpat

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

// ErrPattern is the error of a pattern that is not in the language.
var ErrPattern = errors.New("invalid path pattern")

// windowsAbs matches a Windows absolute path written as a pattern, drive
// letter first ("C:/repo/src/", "c:"): it would never match a
// repository-relative path, so it is refused rather than silently inert.
// (UNC paths start with "//" and backslashes are refused anyway.)
var windowsAbs = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z]:([/\\]|$)`) })

// Pattern is one compiled pattern, matched against a file's whole
// repo-relative path: "*" and "?" stay inside one path segment, "**" spans
// segments; a trailing "/" names a directory and everything under it; a
// pattern with no "/" at all matches a file's name (its last segment) at any
// depth; any other "/", a trailing one included, anchors the pattern at the
// repository root ("tests/" is the root's tests directory, "**/tests/" any
// directory named tests; a leading "/" only anchors, "./" is dropped).
type Pattern struct {
	src      string
	glob     string
	dir      bool
	anchored bool
}

// Compile checks p and returns it compiled.
func Compile(p string) (Pattern, error) {
	e := Pattern{src: p, glob: p}
	for strings.HasPrefix(e.glob, "./") {
		e.glob = e.glob[2:]
	}
	e.anchored = strings.Contains(e.glob, "/")
	if strings.HasSuffix(e.glob, "/") {
		e.dir, e.glob = true, strings.TrimSuffix(e.glob, "/")
	}
	e.glob = strings.TrimPrefix(e.glob, "/")
	if windowsAbs().MatchString(p) {
		return Pattern{}, fmt.Errorf("%w %q: a Windows absolute path; patterns are relative to the repository root, \"/\"-separated (src/gen/, not C:\\repo\\src\\gen)", ErrPattern, p)
	}
	if strings.TrimSpace(e.glob) == "" || strings.ContainsAny(e.glob, `\[]{}`) || strings.HasPrefix(e.glob, "/") ||
		strings.HasSuffix(e.glob, "/") || strings.Contains(e.glob, "//") || !doublestar.ValidatePattern(e.glob) {
		return Pattern{}, fmt.Errorf("%w %q (relative, \"/\"-separated; * and ? within a segment, ** across segments, dir/ for a directory; no [ ] { } \\)", ErrPattern, p)
	}
	return e, nil
}

// MustCompile is Compile for patterns known to be valid (tests, defaults).
func MustCompile(p string) Pattern {
	c, err := Compile(p)
	if err != nil {
		panic(err)
	}
	return c
}

// String returns the pattern as written.
func (e Pattern) String() string { return e.src }

// Match reports whether the repo-relative, "/"-separated path rel is
// matched: the whole path, or (for a directory pattern) one of the
// directories it lies under.
func (e Pattern) Match(rel string) bool {
	return e.matchSegs(strings.Split(strings.TrimPrefix(rel, "./"), "/"))
}

func (e Pattern) matchSegs(segs []string) bool {
	switch {
	case e.dir:
		for i := 1; i < len(segs); i++ {
			if ok, _ := doublestar.Match(e.glob, strings.Join(segs[:i], "/")); ok {
				return true
			}
		}
		return false
	case !e.anchored:
		ok, _ := doublestar.Match(e.glob, segs[len(segs)-1])
		return ok
	}
	ok, _ := doublestar.Match(e.glob, strings.Join(segs, "/"))
	return ok
}

// Set is a list of compiled patterns.
type Set []Pattern

// CompileAll compiles every pattern of ps; the first invalid one is the error.
func CompileAll(ps []string) (Set, error) {
	out := make(Set, 0, len(ps))
	for _, p := range ps {
		c, err := Compile(p)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Match reports whether one of s matches rel.
func (s Set) Match(rel string) bool {
	if len(s) == 0 {
		return false
	}
	segs := strings.Split(strings.TrimPrefix(rel, "./"), "/")
	for _, e := range s {
		if e.matchSegs(segs) {
			return true
		}
	}
	return false
}

// Match compiles pattern and matches rel against it; an invalid pattern
// matches nothing (callers that take user input check patterns with Compile
// first and report them).
func Match(pattern, rel string) bool {
	c, err := Compile(pattern)
	return err == nil && c.Match(rel)
}

// Legacy list shapes, read before every exclusion became an object of
// pattern → reason (gate.yaml's legacy_list says which one a param had).
const (
	// LegacyGitignore: gitignore's own reading, where "d/" named a
	// directory at any depth: "d/" becomes "**/d/".
	LegacyGitignore = "gitignore"
	// LegacyDirs: directories matched on segment boundaries anywhere
	// ("tests/" exempted a/tests/x.py): "d/" becomes "**/d/".
	LegacyDirs = "dirs"
	// LegacyWholePath: globs over the whole path from the root, so a name
	// without "/" meant the root's file only: "x" becomes "/x".
	LegacyWholePath = "whole_path"
)

// FromLegacy returns the patterns of this language that together mean
// what item meant in a list of the given legacy shape.
func FromLegacy(shape, item string) []string {
	x := item
	for strings.HasPrefix(x, "./") {
		x = x[2:]
	}
	dir := strings.HasSuffix(x, "/")
	body := strings.TrimSuffix(x, "/")
	switch shape {
	case LegacyDirs:
		body = strings.TrimPrefix(body, "/")
		if strings.HasPrefix(body, "**/") {
			return []string{body + "/"}
		}
		return []string{"**/" + body + "/"}
	case LegacyGitignore:
		// gitignore: a pattern matching a directory leaves out everything in
		// it, and one without a "/" before its end matches at any depth.
		switch {
		case dir && !strings.Contains(body, "/"):
			return []string{"**/" + x}
		case dir:
			return []string{x}
		case body == "**":
			return []string{x}
		case !strings.Contains(body, "/"):
			return []string{x, "**/" + x + "/"}
		}
		return []string{x, x + "/"}
	case LegacyWholePath:
		if !strings.Contains(body, "/") && !strings.HasPrefix(x, "/") {
			return []string{"/" + x}
		}
	}
	return []string{x}
}
