package runners

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// hermeticGit makes every git the test runs, its own and the code's, read no
// user or system config and commit with a fixed identity.
func hermeticGit(t *testing.T) {
	t.Helper()
	home := t.TempDir()
	for k, v := range map[string]string{
		"HOME":                home,
		"XDG_CONFIG_HOME":     home,
		"GIT_CONFIG_GLOBAL":   os.DevNull,
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME":     "Test Author",
		"GIT_AUTHOR_EMAIL":    "author@example.test",
		"GIT_COMMITTER_NAME":  "Test Committer",
		"GIT_COMMITTER_EMAIL": "committer@example.test",
		"GIT_TERMINAL_PROMPT": "0",
	} {
		t.Setenv(k, v)
	}
}

// tempDir is t.TempDir with symlinks resolved, as the engine resolves roots.
func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// gitCmd runs git in dir and returns its trimmed stdout; it fails the test on error.
func gitCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return strings.TrimSpace(string(out))
}

// writeFiles creates each file under dir with its content.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func listFiles(t *testing.T, root string) []string {
	t.Helper()
	got, err := ListFiles(context.Background(), root)
	if err != nil {
		t.Fatalf("ListFiles(%s): %v", root, err)
	}
	return got
}

func checkList(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("ListFiles:\n got %q\nwant %q", got, want)
	}
}

// TestListFilesGit: in a git work tree the listing is git's, tracked plus
// untracked-not-ignored, without .tausik/, with unusual names unquoted.
func TestListFilesGit(t *testing.T) {
	hermeticGit(t)
	root := tempDir(t)
	gitCmd(t, root, "init", "-q")
	writeFiles(t, root, map[string]string{
		".gitignore":          "*.log\nbuild/\n",
		"tracked.py":          "x\n",
		"kept.log":            "tracked although ignored\n",
		"src/deep/mod.py":     "x\n",
		"deleted.py":          "x\n",
		"with space.py":       "x\n",
		"ünï/файл.py":         "x\n",
		"quote\"d.py":         "x\n",
		"node_modules/dep.js": "not special in git\n",
	})
	gitCmd(t, root, "add", "-A")
	gitCmd(t, root, "add", "-f", "kept.log")
	gitCmd(t, root, "commit", "-q", "-m", "init")
	writeFiles(t, root, map[string]string{
		"untracked.py":      "x\n",
		"ignored.log":       "x\n",
		"build/out.py":      "x\n",
		".tausik/tausik.db": "local state\n",
		".tausik/keys/k":    "key\n",
	})
	if err := os.Remove(filepath.Join(root, "deleted.py")); err != nil {
		t.Fatal(err)
	}
	checkList(t, listFiles(t, root), []string{
		".gitignore", "deleted.py", "kept.log", "node_modules/dep.js", "quote\"d.py",
		"src/deep/mod.py", "tracked.py", "untracked.py", "with space.py", "ünï/файл.py",
	})
	if !InGitWorkTree(root) || !InGitWorkTree(filepath.Join(root, "src", "deep")) {
		t.Error("InGitWorkTree = false inside a work tree")
	}
}

// TestListFilesIgnoresHookGitDir: GIT_DIR and GIT_WORK_TREE set by a hook
// or an outer git process naming another repository do not change whose
// files are listed.
func TestListFilesIgnoresHookGitDir(t *testing.T) {
	hermeticGit(t)
	root, other := tempDir(t), tempDir(t)
	for dir, file := range map[string]string{root: "mine.py", other: "theirs.py"} {
		gitCmd(t, dir, "init", "-q")
		writeFiles(t, dir, map[string]string{file: "x\n"})
		gitCmd(t, dir, "add", "-A")
	}
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	checkList(t, listFiles(t, root), []string{"mine.py"})
}

// TestListFilesGitSubdir: from a subdirectory of a work tree, git lists that
// subdirectory's files, relative to it.
func TestListFilesGitSubdir(t *testing.T) {
	hermeticGit(t)
	root := tempDir(t)
	gitCmd(t, root, "init", "-q")
	writeFiles(t, root, map[string]string{
		".gitignore":   "*.tmp\n",
		"top.py":       "x\n",
		"sub/a.py":     "x\n",
		"sub/b/c.py":   "x\n",
		"sub/skip.tmp": "x\n",
		"other/d.py":   "x\n",
	})
	gitCmd(t, root, "add", "top.py", "sub/a.py")
	gitCmd(t, root, "commit", "-q", "-m", "init")
	checkList(t, listFiles(t, filepath.Join(root, "sub")), []string{"a.py", "b/c.py"})
}

// TestListFilesBrokenGit: a .git that git cannot open is an error, never a
// walk that would judge ignored files, nor the listing of a repository above.
func TestListFilesBrokenGit(t *testing.T) {
	hermeticGit(t)
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string)
	}{
		{"gitfile to nowhere", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{".git": "gitdir: /nonexistent/tausik/.git\n"})
		}},
		{"gitfile garbage", func(t *testing.T, dir string) {
			writeFiles(t, dir, map[string]string{".git": "not a gitfile\n"})
		}},
		{"empty .git dir", func(t *testing.T, dir string) {
			if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"corrupt HEAD", func(t *testing.T, dir string) {
			gitCmd(t, dir, "init", "-q")
			writeFiles(t, dir, map[string]string{".git/HEAD": "garbage\n"})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The broken repository sits inside a healthy one, which git
			// would otherwise fall back to.
			outer := tempDir(t)
			gitCmd(t, outer, "init", "-q")
			writeFiles(t, outer, map[string]string{".gitignore": "secret.txt\n"})
			inner := filepath.Join(outer, "inner")
			writeFiles(t, inner, map[string]string{"a.py": "x\n", "secret.txt": "x\n"})
			tc.setup(t, inner)
			got, err := ListFiles(context.Background(), inner)
			if err == nil {
				t.Fatalf("ListFiles = %q, nil; want an error", got)
			}
			if !strings.Contains(err.Error(), "git ls-files") {
				t.Errorf("error %q does not name git ls-files", err)
			}
		})
	}
}

// TestListFilesWalk: outside git the walk lists every file but those under
// VCS, dependency, cache and virtualenv directories, at any depth.
func TestListFilesWalk(t *testing.T) {
	root := tempDir(t)
	writeFiles(t, root, map[string]string{
		"main.py":                      "x\n",
		"src/node_modules_backup/a.js": "a name that only starts like a skipped one\n",
		"src/venvironment/b.py":        "x\n",
		"src/.hidden/c.py":             "dot directories are walked\n",
		"node_modules/dep/index.js":    "x\n",
		"src/node_modules/dep.js":      "x\n",
		"__pycache__/m.pyc":            "x\n",
		"src/__pycache__/m.pyc":        "x\n",
		".venv/lib/site.py":            "x\n",
		"venv/lib/site.py":             "x\n",
		"myenv/pyvenv.cfg":             "home = /usr/bin\n",
		"myenv/lib/site.py":            "x\n",
		"tools/env2/pyvenv.cfg":        "home = /usr/bin\n",
		"tools/env2/bin/python":        "x\n",
		".tausik/tausik.db":            "x\n",
		".hg/store":                    "x\n",
		".svn/entries":                 "x\n",
		".tox/py/x":                    "x\n",
		".mypy_cache/x":                "x\n",
		".pytest_cache/x":              "x\n",
		".ruff_cache/x":                "x\n",
		".cache/x":                     "x\n",
		"with space/ünï.py":            "x\n",
	})
	checkList(t, listFiles(t, root), []string{
		"main.py", "src/.hidden/c.py", "src/node_modules_backup/a.js", "src/venvironment/b.py", "with space/ünï.py",
	})
	if InGitWorkTree(root) {
		t.Fatal("the temp dir is inside a git work tree; the walk cannot be tested here")
	}
}

// TestWalkFilesSkipsGit: the walk itself never enters .git (ListFiles asks
// git instead whenever a .git exists, so this is walkFiles' own contract).
func TestWalkFilesSkipsGit(t *testing.T) {
	root := tempDir(t)
	writeFiles(t, root, map[string]string{"a.py": "x\n", ".git/HEAD": "x\n", "sub/.git/config": "x\n"})
	got, err := walkFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	checkList(t, got, []string{"a.py"})
}

// TestListFilesWalkRootIsSkippable: the root itself is listed even when its
// name, or a pyvenv.cfg, would make the walk skip it as a subdirectory.
func TestListFilesWalkRootIsSkippable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"node_modules", map[string]string{"index.js": "x\n"}, []string{"index.js"}},
		{"venv-root", map[string]string{"pyvenv.cfg": "x\n", "lib/site.py": "x\n"}, []string{"lib/site.py", "pyvenv.cfg"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := filepath.Join(tempDir(t), tc.name)
			writeFiles(t, root, tc.files)
			checkList(t, listFiles(t, root), tc.want)
		})
	}
}

// TestListFilesEmpty: an empty directory and an empty repository list nothing.
func TestListFilesEmpty(t *testing.T) {
	hermeticGit(t)
	plain := tempDir(t)
	if got := listFiles(t, plain); len(got) != 0 {
		t.Errorf("empty dir: %q", got)
	}
	repo := tempDir(t)
	gitCmd(t, repo, "init", "-q")
	if got := listFiles(t, repo); len(got) != 0 {
		t.Errorf("empty repo: %q", got)
	}
}

// TestListFilesWalkError: a directory the walk cannot read is an error, not
// a shorter listing.
func TestListFilesWalkError(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: chmod 000 does not stop root from reading the directory")
	}
	root := tempDir(t)
	writeFiles(t, root, map[string]string{"a.py": "x\n", "locked/b.py": "x\n"})
	locked := filepath.Join(root, "locked")
	if err := os.Chmod(locked, 0o000); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	if got, err := ListFiles(context.Background(), root); err == nil {
		t.Fatalf("ListFiles = %q, nil; want an error", got)
	}
}
