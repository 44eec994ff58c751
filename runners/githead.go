package runners

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// GitHead returns the commit HEAD points at by reading .git directly, without
// spawning git: it is recorded with every decision and must stay cheap. It
// returns "" when root is not in a git work tree or HEAD has no commit yet.
func GitHead(root string) string {
	gitDir, common := GitDirs(root)
	if gitDir == "" {
		return ""
	}
	head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(head))
	ref, isRef := strings.CutPrefix(s, "ref: ")
	if !isRef {
		return s
	}
	for _, dir := range []string{gitDir, common} {
		if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(ref))); err == nil {
			return strings.TrimSpace(string(b))
		}
	}
	return packedRef(filepath.Join(common, "packed-refs"), ref)
}

// GitDirs returns the git directory of the work tree holding root and its
// common directory (the main repository's, for a linked worktree; the same
// directory otherwise), both "" outside a git work tree.
func GitDirs(root string) (gitDir, common string) {
	gitDir = findGitDir(root)
	if gitDir == "" {
		return "", ""
	}
	common = gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = filepath.Join(gitDir, strings.TrimSpace(string(b)))
	}
	return gitDir, common
}

// findGitDir locates the git directory of the work tree holding root (the
// one gitTop finds, as ListFiles does): a .git directory, or the directory a
// .git file (worktree, submodule) points to.
func findGitDir(root string) string {
	top := gitTop(root)
	if top == "" {
		return ""
	}
	p := filepath.Join(top, ".git")
	info, err := os.Stat(p)
	if err != nil {
		return ""
	}
	if info.IsDir() {
		return p
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok {
		return ""
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(top, target)
	}
	return target
}

func packedRef(file, ref string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sha, name, ok := strings.Cut(sc.Text(), " ")
		if ok && name == ref {
			return sha
		}
	}
	return ""
}
