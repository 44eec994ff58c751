// Package realpath resolves the symlinks of a path that may not exist yet,
// as the kernel would on the way to creating it.
package realpath

import (
	"os"
	"path/filepath"
)

// Resolve resolves symlinks in the longest existing prefix of the clean,
// absolute path p and appends the rest. A dangling symlink is followed to
// the (not yet existing) path it names.
func Resolve(p string) string { return resolvePath(p, 0) }

// maxLinks bounds symlink chains, as the kernel's ELOOP does.
const maxLinks = 40

// resolvePath is Resolve at depth links followed.
func resolvePath(p string, depth int) string {
	existing, rest := p, ""
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			return p
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	if r, err := filepath.EvalSymlinks(existing); err == nil {
		return filepath.Join(r, rest)
	}
	// A dangling link somewhere: resolve its parent, then follow it by hand.
	target, err := os.Readlink(existing)
	if err != nil || depth >= maxLinks {
		return p
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(resolvePath(filepath.Dir(existing), depth+1), target)
	}
	return resolvePath(filepath.Join(filepath.Clean(target), rest), depth+1)
}
