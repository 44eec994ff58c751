package fs

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tausik/tausik/facts"
)

// initRepo makes root a git repository with a git that reads no user or
// system config, so a developer's own attributes cannot decide the test.
func initRepo(t *testing.T, root string) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	cmd := exec.Command("git", "init", "-q", ".")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
}

func linguistOf(files []facts.File) map[string]string {
	out := map[string]string{}
	for _, f := range files {
		out[f.Path] = f.Linguist
	}
	return out
}

// TestLinguistAttributes writes a .gitattributes of the forms GitHub reads
// (set, =true, a later -attr and =false unsetting an earlier pattern, a
// nested .gitattributes) and checks which files the facts mark.
func TestLinguistAttributes(t *testing.T) {
	root := tempDir(t)
	initRepo(t, root)
	writeFile(t, root, ".gitattributes", []byte("gen/** linguist-generated\nlib/** linguist-vendored=true\nsrc/** linguist-generated\nsrc/keep.py -linguist-generated\nsrc/app.py linguist-generated=false\nboth.py linguist-generated linguist-vendored\n"))
	writeFile(t, root, "pkg/.gitattributes", []byte("*.pb.go linguist-generated\n"))
	for _, p := range []string{"gen/a.py", "lib/j.js", "src/keep.py", "src/app.py", "src/x.py", "both.py", "pkg/m.pb.go", "pkg/m.go", "sp ace/ü.py"} {
		writeFile(t, root, p, []byte("x\n"))
	}
	ns := gather(t, root, "gen/a.py", "lib/j.js", "src/keep.py", "src/app.py", "src/x.py", "both.py", "pkg/m.pb.go", "pkg/m.go", "sp ace/ü.py", "gone/gen.py")
	if ns.Status != facts.StatusOK {
		t.Fatalf("gather: %+v", ns)
	}
	got := linguistOf(ns.Data.(facts.Files).Files)
	want := map[string]string{"gen/a.py": "generated", "lib/j.js": "vendored", "src/keep.py": "", "src/app.py": "", "src/x.py": "generated",
		"both.py": "generated", "pkg/m.pb.go": "generated", "pkg/m.go": "", "sp ace/ü.py": "", "gone/gen.py": ""}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: linguist %q, want %q", p, got[p], w)
		}
	}
}

// TestLinguistOutsideGit: without a repository git reads no .gitattributes,
// and neither do the facts.
func TestLinguistOutsideGit(t *testing.T) {
	root := tempDir(t)
	writeFile(t, root, ".gitattributes", []byte("*.py linguist-generated\n"))
	writeFile(t, root, "a.py", []byte("x\n"))
	ns := gather(t, root, "a.py")
	if ns.Status != facts.StatusOK || ns.Data.(facts.Files).Files[0].Linguist != "" {
		t.Errorf("outside git: %+v", ns)
	}
}

// TestLinguistBrokenGit: a .git git cannot read inside the tree fails the
// namespace instead of judging (or skipping) files by guess.
func TestLinguistBrokenGit(t *testing.T) {
	root := tempDir(t)
	initRepo(t, root)
	writeFile(t, root, "a.py", []byte("x\n"))
	if err := os.RemoveAll(filepath.Join(root, ".git")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, ".git", []byte("gitdir: /nonexistent/repo\n"))
	ns := gather(t, root, "a.py")
	if ns.Status != facts.StatusError {
		t.Errorf("broken git: status %s, want error: %+v", ns.Status, ns)
	}
}
