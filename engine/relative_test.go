package engine

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRelativeResolves: "..", "./", doubled slashes, absolute paths and
// symlinks (to directories, to files, dangling, chained) resolve to where a
// write would land, so none can slip a path past a scope check.
func TestRelativeResolves(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(p string) {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mk("src/pkg")
	mk("secret")
	if err := os.WriteFile(filepath.Join(root, "secret/key.pem"), []byte("k"), 0o600); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"src/tosecret":    "../secret",         // directory link out of scope
		"src/key.pem":     "../secret/key.pem", // file link
		"src/dangling.py": "../secret/new.py",  // dangling file link
		"src/chain":       "tosecret",          // link to a link
		"src/out":         outside,             // absolute link out of the project
		"src/pkg/up":      "../../secret",      // relative link from a subdirectory
	}
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(root, l)); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		in   string
		want string
		ok   bool
	}{
		{"src/a.py", "src/a.py", true},
		{"./src//pkg/../a.py", "src/a.py", true},
		{filepath.Join(root, "src/new/dir/x.py"), "src/new/dir/x.py", true},
		{"src/../../etc/passwd", "", false},
		{"/etc/passwd", "", false},
		{"src/tosecret/x.py", "secret/x.py", true},
		{"src/key.pem", "secret/key.pem", true},
		{"src/dangling.py", "secret/new.py", true},
		{"src/chain/deep/x.py", "secret/deep/x.py", true},
		{"src/out/x.py", "", false},
		{"src/pkg/up/x.py", "secret/x.py", true},
		{".", ".", true},
	}
	for _, c := range cases {
		got, ok := Relative(root, c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("Relative(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
