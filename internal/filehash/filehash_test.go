package filehash

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSHA256(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	// sha256("abc"), FIPS 180-2's example.
	if got, err := SHA256(p); err != nil || got != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("SHA256 = %q, %v", got, err)
	}
	if _, err := SHA256(p + ".missing"); err == nil {
		t.Error("a missing file hashed")
	}
}
