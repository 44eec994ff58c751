package runners

import (
	"os"
	"path/filepath"
	"testing"
)

// newCommitRepo returns a fresh repository on branch main with n commits.
func newCommitRepo(t *testing.T, n int) string {
	t.Helper()
	root := tempDir(t)
	gitCmd(t, root, "init", "-q", "-b", "main")
	for i := range n {
		commit(t, root, i)
	}
	return root
}

// commit writes a file and commits it.
func commit(t *testing.T, dir string, i int) {
	t.Helper()
	writeFiles(t, dir, map[string]string{"file.txt": string(rune('a'+i%26)) + "\n"})
	gitCmd(t, dir, "add", "-A")
	gitCmd(t, dir, "commit", "-q", "--allow-empty", "-m", "commit")
}

// checkHead compares GitHead(dir) with what git itself says HEAD is.
func checkHead(t *testing.T, dir string) string {
	t.Helper()
	want := gitCmd(t, dir, "rev-parse", "HEAD")
	if len(want) != 40 {
		t.Fatalf("git rev-parse HEAD = %q", want)
	}
	if got := GitHead(dir); got != want {
		t.Errorf("GitHead(%s) = %q, want %q", dir, got, want)
	}
	return want
}

func TestGitHeadFreshCommit(t *testing.T) {
	hermeticGit(t)
	root := newCommitRepo(t, 1)
	head := checkHead(t, root)
	// From a subdirectory the same repository answers.
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := GitHead(sub); got != head {
		t.Errorf("GitHead(subdir) = %q, want %q", got, head)
	}
	// A new commit moves it.
	commit(t, root, 1)
	if checkHead(t, root) == head {
		t.Error("HEAD did not move with a new commit")
	}
}

// TestGitHeadBranchWithSlash: refs/heads/feature/x is a nested file.
func TestGitHeadBranchWithSlash(t *testing.T) {
	hermeticGit(t)
	root := newCommitRepo(t, 1)
	gitCmd(t, root, "checkout", "-q", "-b", "feature/x")
	commit(t, root, 1)
	checkHead(t, root)
}

// TestGitHeadPackedRef: after `git pack-refs --all` the branch lives only in
// packed-refs (next to a peeled annotated tag); after one more commit the
// loose ref is newer than the packed one and must win.
func TestGitHeadPackedRef(t *testing.T) {
	hermeticGit(t)
	root := newCommitRepo(t, 2)
	gitCmd(t, root, "tag", "-a", "-m", "release", "v1", "HEAD~1")
	gitCmd(t, root, "pack-refs", "--all")
	if _, err := os.Stat(filepath.Join(root, ".git", "refs", "heads", "main")); !os.IsNotExist(err) {
		t.Fatalf("refs/heads/main is still a loose ref (err %v); the test would not read packed-refs", err)
	}
	checkHead(t, root)
	commit(t, root, 2)
	if _, err := os.Stat(filepath.Join(root, ".git", "refs", "heads", "main")); err != nil {
		t.Fatalf("no loose ref after a commit: %v", err)
	}
	checkHead(t, root)
}

// TestGitHeadDetached: HEAD holds a commit id, not a ref.
func TestGitHeadDetached(t *testing.T) {
	hermeticGit(t)
	root := newCommitRepo(t, 2)
	tip := gitCmd(t, root, "rev-parse", "HEAD")
	gitCmd(t, root, "checkout", "-q", "--detach", "HEAD~1")
	if checkHead(t, root) == tip {
		t.Error("detached HEAD should be the first commit, not the tip")
	}
}

// TestGitHeadNoCommits: an unborn branch has no HEAD commit.
func TestGitHeadNoCommits(t *testing.T) {
	hermeticGit(t)
	root := newCommitRepo(t, 0)
	if got := GitHead(root); got != "" {
		t.Errorf("GitHead(no commits) = %q, want \"\"", got)
	}
}

// TestGitHeadWorktree: a linked worktree has a .git file; its HEAD is its own
// branch, whose ref lives in the common directory, loose or packed.
func TestGitHeadWorktree(t *testing.T) {
	hermeticGit(t)
	root := newCommitRepo(t, 1)
	wt := filepath.Join(tempDir(t), "wt")
	gitCmd(t, root, "worktree", "add", "-q", "-b", "side", wt)
	commit(t, wt, 5)
	if info, err := os.Lstat(filepath.Join(wt, ".git")); err != nil || info.IsDir() {
		t.Fatalf("worktree .git should be a file (err %v)", err)
	}
	mainHead := checkHead(t, root)
	if checkHead(t, wt) == mainHead {
		t.Error("the worktree's HEAD should differ from the main work tree's")
	}
	gitCmd(t, root, "pack-refs", "--all")
	checkHead(t, wt)
	// A detached worktree.
	gitCmd(t, wt, "checkout", "-q", "--detach", "HEAD~1")
	checkHead(t, wt)
}

// TestGitHeadNotARepo: outside any work tree there is no HEAD.
func TestGitHeadNotARepo(t *testing.T) {
	dir := tempDir(t)
	if InGitWorkTree(dir) {
		t.Skip("the temp dir is inside a git work tree")
	}
	if got := GitHead(dir); got != "" {
		t.Errorf("GitHead(non-repo) = %q, want \"\"", got)
	}
	if got := GitHead(filepath.Join(dir, "missing")); got != "" {
		t.Errorf("GitHead(missing dir) = %q, want \"\"", got)
	}
}
