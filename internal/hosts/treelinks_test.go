package hosts

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestLinksBelow: the links below a directory that point outside it (a
// dangling one by its text), not those inside it or under .git; past the
// bound the walk says it is incomplete.
func TestLinksBelow(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "d")
	for _, d := range []string{"d/sub", "d/.git", "guard"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"d/out": "../guard", "d/sub/gone": "../../missing", "d/in": "sub", "d/.git/x": "../../guard",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	got, complete := linksBelow(dir, 100)
	slices.Sort(got)
	want := []string{filepath.Join(root, "guard"), filepath.Join(root, "missing")}
	if !complete || !slices.Equal(got, want) {
		t.Errorf("got %v (complete %v), want %v", got, complete, want)
	}
	if _, complete := linksBelow(dir, 3); complete {
		t.Error("a walk past its bound says it is complete")
	}
}
