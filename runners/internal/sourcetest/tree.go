package sourcetest

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/tausik/tausik/runners"
)

// TempDir is t.TempDir with its symlinks resolved, as a project root is.
func TempDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// WriteFile writes content to the "/"-separated path rel under root,
// creating its directories.
func WriteFile(t testing.TB, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// GitRepo is a fresh project root holding files (path -> content), every
// one committed in a git repository of its own.
func GitRepo(t testing.TB, files map[string]string) string {
	t.Helper()
	root := TempDir(t)
	for p, src := range files {
		WriteFile(t, root, p, src)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "tree"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return root
}

// CountOpens replaces the runner's open hook with one that records the
// repo-relative paths under root it opens (restored when t ends); the
// returned func lists them, sorted and once per open, and starts afresh.
func CountOpens(t testing.TB, root string, hook *runners.OpenFunc) func() []string {
	t.Helper()
	var mu sync.Mutex
	var opened []string
	orig := *hook
	t.Cleanup(func() { *hook = orig })
	*hook = func(name string) (io.ReadCloser, error) {
		rel, _ := filepath.Rel(root, name)
		mu.Lock()
		opened = append(opened, filepath.ToSlash(rel))
		mu.Unlock()
		return orig(name)
	}
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		got := slices.Sorted(slices.Values(opened))
		opened = nil
		return got
	}
}
