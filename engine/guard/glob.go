package guard

import (
	"path/filepath"
	"strings"
)

// isGlob reports whether p holds a shell glob's special characters.
func isGlob(p string) bool { return strings.ContainsAny(p, "*?[") }

// elems are the elements of the absolute, clean path p.
func elems(p string) []string {
	return strings.Split(strings.TrimPrefix(filepath.ToSlash(p), "/"), "/")
}

// globBelow reports whether the glob pattern may name g's path itself, or,
// g being a directory, a path below it.
func globBelow(pattern string, g guardPath) bool {
	if !isGlob(pattern) {
		return false
	}
	pe, ge := elems(pattern), elems(g.path)
	switch {
	case len(pe) == len(ge):
		return matchElems(pe, ge)
	case len(pe) > len(ge) && g.dir:
		return matchElems(pe[:len(ge)], ge)
	}
	return false
}

// globAbove reports whether the glob pattern may name a directory above
// guard path p.
func globAbove(pattern, p string) bool {
	if !isGlob(pattern) {
		return false
	}
	pe, ge := elems(pattern), elems(p)
	return len(pe) < len(ge) && matchElems(pe, ge[:len(pe)])
}

// matchElems matches a pattern's elements against a path's, one by one. A
// malformed element (an unclosed [) may match anything, as far as the guard
// is concerned.
func matchElems(pattern, path []string) bool {
	for i := range pattern {
		if strings.HasPrefix(path[i], ".") && !strings.HasPrefix(pattern[i], ".") {
			return false // a glob does not match a dot file unless it says the dot
		}
		ok, err := filepath.Match(pattern[i], path[i])
		if err != nil {
			ok = true
		}
		if !ok {
			return false
		}
	}
	return true
}
