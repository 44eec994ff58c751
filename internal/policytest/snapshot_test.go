package policytest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestSnapshotSeesWhatAChangeWouldShow builds a real git repository and
// changes it the ways a fixture's tool could: a tracked file edited, one
// deleted, an untracked file added, and an ignored one added (which, like
// git, the snapshot does not see).
func TestSnapshotSeesWhatAChangeWouldShow(t *testing.T) {
	root := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".gitignore", "build/\n")
	write("a.py", "a = 1\n")
	write("b.py", "b = 1\n")
	git := exec.Command("git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", root, "init", "-q")
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	add := exec.Command("git", "-C", root, "add", ".")
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	ctx := context.Background()
	before, err := snapshotTree(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	write("a.py", "a = 2\n")
	if err := os.Remove(filepath.Join(root, "b.py")); err != nil {
		t.Fatal(err)
	}
	write("ESCAPE", "x\n")
	if err := os.Mkdir(filepath.Join(root, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("build/out.o", "x\n")
	after, err := snapshotTree(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := changedPaths(before, after), []string{"ESCAPE", "a.py", "b.py"}; !slices.Equal(got, want) {
		t.Fatalf("changed %q, want %q", got, want)
	}
	if got := changedPaths(after, after); len(got) != 0 {
		t.Fatalf("an unchanged tree changed: %q", got)
	}
	// Outside git, a walk: .git and .tausik are not the tree.
	plain := t.TempDir()
	root = plain
	write("x.txt", "x\n")
	before, _ = snapshotTree(ctx, plain)
	write("y.txt", "y\n")
	after, _ = snapshotTree(ctx, plain)
	if got := changedPaths(before, after); !slices.Equal(got, []string{"y.txt"}) {
		t.Fatalf("walk: changed %q", got)
	}
}
