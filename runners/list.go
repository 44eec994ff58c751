package runners

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// skipDirs are directory names a walk never enters: VCS data, dependency
// trees, caches and tausik's own local state.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".tausik": true,
	"node_modules": true, "__pycache__": true, ".venv": true, "venv": true,
	".tox": true, ".nox": true, ".mypy_cache": true, ".pytest_cache": true,
	".ruff_cache": true, ".cache": true,
}

// ListFiles lists the files of the project at root, repo-relative and sorted.
// Inside a git work tree it asks git (tracked plus untracked-not-ignored);
// elsewhere it walks the tree. A git work tree where git fails is an error, not
// a reason to fall back to a walk that would include ignored files.
func ListFiles(ctx context.Context, root string) ([]string, error) {
	if top := gitTop(root); top != "" {
		return gitListFiles(ctx, root, top)
	}
	return walkFiles(root)
}

// InGitWorkTree reports whether root or one of its ancestors holds a .git entry.
func InGitWorkTree(root string) bool { return gitTop(root) != "" }

// GitTop returns the nearest directory at or above root holding a .git
// entry, or "" outside a git work tree.
func GitTop(root string) string { return gitTop(root) }

// gitTop returns the nearest directory at or above root holding a .git
// entry, or "".
func gitTop(root string) string {
	dir := root
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func gitListFiles(ctx context.Context, root, top string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "git", "-c", "core.quotepath=off", "-c", "core.fsmonitor=false", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	// GitEnv, so a hook's GIT_DIR cannot make git list another repository.
	// git skips a .git it cannot open and goes on looking upwards; stop it
	// above top, so a broken .git is an error and not an outer repository's
	// listing (with that repository's ignore rules).
	cmd.Env = append(GitEnv(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(top))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	seen := map[string]bool{}
	var files []string
	for _, p := range bytes.Split(out, []byte{0}) {
		s := string(p)
		if s == "" || seen[s] || strings.HasPrefix(s, ".tausik/") {
			continue
		}
		seen[s] = true
		files = append(files, s)
	}
	sort.Strings(files)
	return files, nil
}

func walkFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (skipDirs[d.Name()] || isVirtualenv(path)) {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", root, err)
	}
	sort.Strings(files)
	return files, nil
}

// isVirtualenv reports whether dir is a Python virtualenv of any name.
func isVirtualenv(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, "pyvenv.cfg"))
	return err == nil
}
