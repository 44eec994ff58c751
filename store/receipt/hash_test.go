package receipt

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func writeFile(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustHash(t *testing.T, root string, paths ...string) string {
	t.Helper()
	h, err := FilesHash(root, paths)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestFilesHash(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "src/a.go", "package a\n")
	writeFile(t, root, "src/b.go", "package b\n")
	base := mustHash(t, root, "src/a.go", "src/b.go")
	if len(base) != 7+64 || base[:7] != "sha256:" {
		t.Fatalf("format %q", base)
	}
	if h := mustHash(t, root, "./src/b.go", "src/a.go", "src//a.go"); h != base {
		t.Fatal("order or spelling of paths changed the hash")
	}

	// Touch: same content, new mtime → same hash.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(root, "src/a.go"), later, later); err != nil {
		t.Fatal(err)
	}
	if h := mustHash(t, root, "src/a.go", "src/b.go"); h != base {
		t.Fatal("touch changed the hash")
	}
	// Rewriting identical content is a touch too.
	writeFile(t, root, "src/a.go", "package a\n")
	if h := mustHash(t, root, "src/a.go", "src/b.go"); h != base {
		t.Fatal("rewrite with the same bytes changed the hash")
	}
	// Edit (same size) → different hash.
	writeFile(t, root, "src/a.go", "package x\n")
	edited := mustHash(t, root, "src/a.go", "src/b.go")
	if edited == base {
		t.Fatal("same-size edit kept the hash")
	}
	writeFile(t, root, "src/a.go", "package a\n")
	if mustHash(t, root, "src/a.go", "src/b.go") != base {
		t.Fatal("restoring content did not restore the hash")
	}
	// Missing files are part of the hash; creating one changes it.
	missing := mustHash(t, root, "src/a.go", "src/b.go", "src/c.go")
	if missing == base {
		t.Fatal("a missing declared file did not change the hash")
	}
	writeFile(t, root, "src/c.go", "")
	if mustHash(t, root, "src/a.go", "src/b.go", "src/c.go") == missing {
		t.Fatal("creating an empty declared file kept the hash")
	}
	// Deleting a declared file changes it.
	os.Remove(filepath.Join(root, "src/b.go"))
	if mustHash(t, root, "src/a.go", "src/b.go") == base {
		t.Fatal("deleting a declared file kept the hash")
	}
	// Renaming content between files changes it.
	writeFile(t, root, "x", "1")
	writeFile(t, root, "y", "2")
	h1 := mustHash(t, root, "x", "y")
	writeFile(t, root, "x", "2")
	writeFile(t, root, "y", "1")
	if mustHash(t, root, "x", "y") == h1 {
		t.Fatal("swapping contents kept the hash")
	}
	if mustHash(t, root) == "" {
		t.Fatal("no files: empty hash")
	}

	for _, bad := range []string{"/etc/passwd", "../x", "src/../../x", "", ".", "a\nb"} {
		if _, err := FilesHash(root, []string{bad}); !errors.Is(err, ErrBadPath) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := FilesHash(root, []string{"src"}); !errors.Is(err, ErrBadPath) {
		t.Errorf("directory: not refused")
	}
}

func TestGateSignature(t *testing.T) {
	gates := []VerifyGate{
		{Name: "pytest", Command: []string{"pytest", "-q"}, Severity: "block"},
		{Name: "ruff", Command: []string{"ruff", "check", "{files}"}, Severity: "block"},
	}
	base := GateSignature(gates)
	if len(base) != 7+64 {
		t.Fatalf("format %q", base)
	}
	if GateSignature([]VerifyGate{gates[1], gates[0]}) != base {
		t.Fatal("configuration order changed the signature")
	}
	changes := map[string][]VerifyGate{
		"severity":   {gates[0], {Name: "ruff", Command: gates[1].Command, Severity: "warn"}},
		"command":    {gates[0], {Name: "ruff", Command: []string{"ruff", "check"}, Severity: "block"}},
		"argv split": {gates[0], {Name: "ruff", Command: []string{"ruff check", "{files}"}, Severity: "block"}},
		"removed":    {gates[0]},
		"added":      append(append([]VerifyGate{}, gates...), VerifyGate{Name: "mypy", Severity: "warn"}),
		"renamed":    {gates[0], {Name: "ruff2", Command: gates[1].Command, Severity: "block"}},
	}
	for name, g := range changes {
		if GateSignature(g) == base {
			t.Errorf("%s: signature unchanged", name)
		}
	}
	if GateSignature(nil) != GateSignature([]VerifyGate{}) {
		t.Fatal("nil and empty gate lists differ")
	}
	dup := []VerifyGate{{Name: "a", Severity: "block"}, {Name: "a", Severity: "warn"}}
	if GateSignature(dup) != GateSignature([]VerifyGate{dup[1], dup[0]}) {
		t.Fatal("order of same-named gates changed the signature")
	}
}
