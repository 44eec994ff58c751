package golang_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/golang"
)

// TestGatherCancelledFailsClosed: a cancelled evaluation on a tree without
// .go files is not an empty, passing go namespace.
func TestGatherCancelledFailsClosed(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "m.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &runners.Scope{Root: root}
	if _, err := s.RepoFiles(ctx); err != nil { // listed by another runner first
		t.Fatal(err)
	}
	cancel()
	if ns := golang.New().Gather(ctx, s); ns.Status == facts.StatusOK {
		t.Errorf("cancelled gather: status %v, files %v", ns.Status, ns.Data)
	}
}
