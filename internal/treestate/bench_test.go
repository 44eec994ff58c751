package treestate

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// benchRepo is a committed git repository of 2,000 files in 40 directories.
func benchRepo(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	for i := range 2000 {
		p := filepath.Join(fmt.Sprintf("d%02d", i%40), fmt.Sprintf("f%04d.txt", i))
		write(b, dir, p, fmt.Sprintf("file %d\n", i))
	}
	for _, args := range [][]string{{"git", "init", "-q"}, {"git", "add", "."}, {"git", "commit", "-qm", "init"}} {
		run(b, dir, args...)
	}
	return dir
}

func benchCompare(b *testing.B, changes int) {
	dir := benchRepo(b)
	ctx := context.Background()
	s, err := Record(ctx, dir, gitEnv)
	if err != nil {
		b.Fatal(err)
	}
	for i := range changes {
		write(b, dir, fmt.Sprintf("d%02d/f%04d.txt", i%40, i), "changed\n")
	}
	b.ResetTimer()
	for b.Loop() {
		got, err := Compare(ctx, dir, s, gitEnv)
		if err != nil || len(got) != changes {
			b.Fatalf("%d changes, %v; want %d", len(got), err, changes)
		}
	}
}

// BenchmarkCompare2000Files measures the backstop's comparison on a
// 2,000-file repository with no change and with 10 changed files.
func BenchmarkCompare2000Files(b *testing.B) {
	b.Run("unchanged", func(b *testing.B) { benchCompare(b, 0) })
	b.Run("10_changes", func(b *testing.B) { benchCompare(b, 10) })
}
