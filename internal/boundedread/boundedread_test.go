//go:build unix

package boundedread

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// special makes, in dir, each kind of file a hostile config can be, and
// names the error each must give.
func special(t *testing.T, dir string) map[string]error {
	t.Helper()
	out := map[string]error{}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	out["fifo"] = ErrNotRegular
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero")); err != nil {
		t.Fatal(err)
	}
	out["zero"] = ErrNotRegular
	l, err := net.Listen("unix", filepath.Join(dir, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	out["sock"] = nil // opening a socket fails (ENXIO); any error will do
	big, err := os.Create(filepath.Join(dir, "big"))
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: 150 MB of nothing costs no disk.
	if err := big.Truncate(150 << 20); err != nil {
		t.Fatal(err)
	}
	big.Close()
	out["big"] = ErrTooLarge
	return out
}

func TestFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	for name, want := range special(t, dir) {
		p := filepath.Join(dir, name)
		_, err := File(p, MaxConfig)
		if err == nil {
			t.Errorf("%s: read, want an error", name)
			continue
		}
		if want != nil && !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}
}

func TestInRefusesEscapesAndSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	want := special(t, dir)
	outside := filepath.Join(t.TempDir(), "secret.json")
	if err := os.WriteFile(outside, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "escape")); err != nil {
		t.Fatal(err)
	}
	want["escape"] = nil
	want["zero"] = nil // a symlink out of dir: refused before it is opened
	want["../x"] = nil
	for name := range want {
		if _, err := In(dir, name, MaxConfig); err == nil {
			t.Errorf("%s: read, want an error", name)
		} else if want[name] != nil && !errors.Is(err, want[name]) {
			t.Errorf("%s: %v, want %v", name, err, want[name])
		}
	}
	// A symlink that stays inside is followed.
	if err := os.WriteFile(filepath.Join(dir, "real.json"), []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.json", filepath.Join(dir, "alias.json")); err != nil {
		t.Fatal(err)
	}
	if b, err := In(dir, "alias.json", MaxConfig); err != nil || string(b) != `{"a":1}` {
		t.Errorf("alias.json: %q, %v", b, err)
	}
}

func TestFSChecksEveryOpen(t *testing.T) {
	dir := t.TempDir()
	want := special(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "ok.yaml"), []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys := FS(dir, MaxBundle)
	for name := range want {
		if _, err := fs.ReadFile(fsys, name); err == nil {
			t.Errorf("ReadFile %s: read, want an error", name)
		}
		if f, err := fsys.Open(name); err == nil {
			f.Close()
			t.Errorf("Open %s: opened, want an error", name)
		}
	}
	sub, err := fs.Sub(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := fs.ReadFile(sub, "ok.yaml"); err != nil || string(b) != "a: 1\n" {
		t.Errorf("ok.yaml: %q, %v", b, err)
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil || len(entries) != len(want)+1 {
		t.Errorf("ReadDir: %d entries, %v", len(entries), err)
	}
}

// The cap is inclusive: max bytes are read, max+1 are refused.
func TestCapBoundary(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte(strings.Repeat(" ", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := File(p, 99); !errors.Is(err, ErrTooLarge) {
		t.Errorf("100 bytes under a 99-byte cap: %v", err)
	}
	if b, err := File(p, 100); err != nil || len(b) != 100 {
		t.Errorf("100 bytes under a 100-byte cap: %d, %v", len(b), err)
	}
}
