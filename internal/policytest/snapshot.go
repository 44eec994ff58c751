package policytest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
)

// treeState describes the working tree's files by slash-separated path: the
// mode and the sha256 of a file's content, or a link's target.
type treeState map[string]string

// snapshotTree records the files of the working tree at root that a change
// could show: in a git repository every tracked file and every untracked one
// git does not ignore (`git ls-files --cached --others --exclude-standard`),
// elsewhere every file outside .git and .tausik. `policy test` takes one
// before and one after its fixtures: a fixture whose tools wrote into the
// tree fails the run even when its verdict was right.
func snapshotTree(ctx context.Context, root string) (treeState, error) {
	paths, err := gitFiles(ctx, root)
	if err != nil {
		if paths, err = walkFiles(root); err != nil {
			return nil, err
		}
	}
	st := treeState{}
	for _, p := range paths {
		st[p] = describeFile(filepath.Join(root, filepath.FromSlash(p)))
	}
	return st, nil
}

// gitFiles lists root's tracked and untracked, not ignored, files; an error
// when root is not a git work tree.
func gitFiles(ctx context.Context, root string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			paths = append(paths, string(p))
		}
	}
	return slices.Compact(slices.Sorted(slices.Values(paths))), nil
}

// walkFiles lists every file below root outside .git and .tausik.
func walkFiles(root string) ([]string, error) {
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (d.Name() == ".git" || d.Name() == ".tausik") {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	return paths, err
}

// describeFile is one entry of a treeState; "absent" for a tracked file that
// is gone.
func describeFile(p string) string {
	info, err := os.Lstat(p)
	if err != nil {
		return "absent"
	}
	desc := info.Mode().String()
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(p)
		desc += " -> " + target
	case info.Mode().IsRegular():
		b, err := os.ReadFile(p)
		if err != nil {
			return desc + " unreadable"
		}
		desc += fmt.Sprintf(" %x", sha256.Sum256(b))
	}
	return desc
}

// changedPaths lists, sorted, the paths whose entry differs between a and
// b: added, removed or changed.
func changedPaths(a, b treeState) []string {
	var out []string
	for p, d := range a {
		if b[p] != d {
			out = append(out, p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
