//go:build unix

package cli_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tausik/tausik/cli"
)

// run runs tausik in root with no user or managed tier and returns the
// exit code and stderr.
func run(t *testing.T, root string, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("TAUSIK_USER_CONFIG", "")
	t.Setenv("TAUSIK_MANAGED_CONFIG", "")
	var stdout, stderr strings.Builder
	code := cli.Run(context.Background(), append([]string{"--root", root}, args...), strings.NewReader(""), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// TestHostileConfigFiles puts in tausik/gates.json each thing an attacker
// can commit there in place of a config: every one must stop the command
// with exit 3 and the path, at once, without reading a byte of it.
func TestHostileConfigFiles(t *testing.T) {
	type attack struct {
		make func(t *testing.T, p string)
		want string // in the message: the file was refused, not parsed
	}
	cases := map[string]attack{
		"symlink to /dev/zero": {func(t *testing.T, p string) { must(t, os.Symlink("/dev/zero", p)) }, "path escapes"},
		"FIFO":                 {func(t *testing.T, p string) { must(t, syscall.Mkfifo(p, 0o644)) }, "not a regular file (a FIFO)"},
		"socket": {func(t *testing.T, p string) {
			l, err := net.Listen("unix", p)
			must(t, err)
			t.Cleanup(func() { l.Close() })
		}, "no such device or address"},
		"150 MB file": {func(t *testing.T, p string) {
			f, err := os.Create(p)
			must(t, err)
			must(t, f.Truncate(150<<20)) // sparse: 150 MB of NULs on no disk
			must(t, f.Close())
		}, "file too large"},
		"symlink out of the repository": {func(t *testing.T, p string) {
			out := filepath.Join(t.TempDir(), "gates.json")
			must(t, os.WriteFile(out, []byte(`{"gates": {}}`), 0o644))
			must(t, os.Symlink(out, p))
		}, "path escapes"},
	}
	for name, a := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			must(t, os.MkdirAll(filepath.Join(root, "tausik"), 0o755))
			a.make(t, filepath.Join(root, "tausik", "gates.json"))
			code, _, stderr := run(t, root, "policy", "eval", "--trigger", "commit")
			if code != 3 || !strings.Contains(stderr, "tausik/gates.json: ") || !strings.Contains(stderr, a.want) {
				t.Errorf("exit %d, want 3 naming tausik/gates.json and %q; stderr:\n%s", code, a.want, stderr)
			}
		})
	}
}

// TestDuplicateConfigKey: with a repeated key the last one would win, so a
// reviewer could read the tightening and the engine apply the other value.
func TestDuplicateConfigKey(t *testing.T) {
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "tausik"), 0o755))
	cfg := `{
  "gates": {
    "filesize": {"params": {"max_lines": 300}},
    "filesize": {"enabled": true}
  }
}
`
	must(t, os.WriteFile(filepath.Join(root, "tausik", "gates.json"), []byte(cfg), 0o644))
	code, _, stderr := run(t, root, "policy", "eval", "--trigger", "commit")
	if code != 3 || !strings.Contains(stderr, "tausik/gates.json:4:") || !strings.Contains(stderr, "duplicate key") {
		t.Errorf("exit %d, want 3 at tausik/gates.json:4 for the duplicate key; stderr:\n%s", code, stderr)
	}
}

// TestHostileBundleFiles: a team bundle's files are read under the same
// rules as the config.
func TestHostileBundleFiles(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "tausik", "policies", "x")
	must(t, os.MkdirAll(dir, 0o755))
	must(t, syscall.Mkfifo(filepath.Join(dir, "gate.yaml"), 0o644))
	code, _, stderr := run(t, root, "policy", "eval", "--trigger", "commit")
	if code != 3 || !strings.Contains(stderr, "tausik/policies/x/gate.yaml") || !strings.Contains(stderr, "FIFO") {
		t.Errorf("exit %d, want 3 naming the FIFO gate.yaml; stderr:\n%s", code, stderr)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
