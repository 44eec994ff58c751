package atomicfile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// entries lists dir, so a test sees a temporary file left behind.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestWriteCreatesAndReplaces(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	if err := Write(path, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("two\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "two\n" {
		t.Fatalf("content %q, %v", b, err)
	}
	info, _ := os.Stat(path)
	if info.Mode().Perm() != 0o755 {
		t.Errorf("mode %04o despite umask 077, want 0755", info.Mode().Perm())
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Errorf("directory holds %v, want only settings.json", got)
	}
}

// TestWriteFailureLeavesOldState fails the rename (a directory sits at the
// path) and the create (no parent directory): the path is as it was and no
// temporary file is left.
func TestWriteFailureLeavesOldState(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "taken")
	if err := os.MkdirAll(filepath.Join(path, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("x"), 0o644); err == nil {
		t.Fatal("rename over a non-empty directory succeeded")
	}
	if info, err := os.Stat(path); err != nil || !info.IsDir() {
		t.Errorf("the directory at the path is gone: %v", err)
	}
	if got := entries(t, dir); len(got) != 1 || got[0] != "taken" {
		t.Errorf("a failed write left %v", got)
	}
	err := Write(filepath.Join(dir, "missing", "f"), []byte("x"), 0o644)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("write into a missing directory: %v, want ErrNotExist", err)
	}
}

// TestWriteReplacesLinkNotTarget pins the documented contract: the link is
// replaced, its target left alone.
func TestWriteReplacesLinkNotTarget(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "target"), filepath.Join(dir, "link")
	if err := os.WriteFile(target, []byte("target\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target", link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "target\n" {
		t.Errorf("the link's target changed to %q", b)
	}
	if info, _ := os.Lstat(link); info.Mode()&fs.ModeSymlink != 0 {
		t.Error("the path is still a link")
	}
}

// TestWriteReadersSeeWholeFiles reads the file while it is rewritten with
// contents of different lengths: every read is one whole version.
func TestWriteReadersSeeWholeFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	versions := [][]byte{bytes.Repeat([]byte("a"), 1<<16), bytes.Repeat([]byte("b"), 10)}
	if err := Write(path, versions[0], 0o644); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 200; i++ {
			if err := Write(path, versions[i%2], 0o644); err != nil {
				t.Error(err)
				break
			}
		}
		close(done)
	}()
	reads := 0
	for {
		select {
		case <-done:
			wg.Wait()
			if reads == 0 {
				t.Fatal("no read ran while writing")
			}
			return
		default:
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, versions[0]) && !bytes.Equal(b, versions[1]) {
			t.Fatalf("read %d bytes starting %q: half a file", len(b), b[:min(len(b), 8)])
		}
		reads++
	}
}

func TestMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if m, err := Mode(path, 0o640); err != nil || m != 0o640 {
		t.Errorf("missing file: %04o, %v; want the default 0640", m, err)
	}
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o751); err != nil {
		t.Fatal(err)
	}
	if m, err := Mode(path, 0o644); err != nil || m != 0o751 {
		t.Errorf("existing file: %04o, %v; want 0751", m, err)
	}
	// A path through a regular file cannot be looked at: an error, not the default.
	if _, err := Mode(filepath.Join(path, "below"), 0o644); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("stat through a file: %v, want ENOTDIR", err)
	}
}
