package renar

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/artifacts"
	"github.com/tausik/tausik/runners"
)

const okSpec = "---\nartifact: spec\nslug: s1\nstatus: active\n---\n# s1\n"

// TestUnreadableArtifactIsNamespaceError: an artifact that is on disk but
// cannot be read (a directory in place of the file, a link to a directory
// or to nothing, a specs/ that is a file) is a namespace error naming it,
// never a silent skip and never a file that merely "did not parse".
func TestUnreadableArtifactIsNamespaceError(t *testing.T) {
	for name, c := range map[string]struct {
		setup func(root string) error
		want  string
	}{
		"directory named like an artifact": {func(root string) error {
			return os.MkdirAll(filepath.Join(root, "renar", "specs", "s2.md"), 0o755)
		}, "renar/specs/s2.md"},
		"link to a directory": {func(root string) error {
			return os.Symlink("..", filepath.Join(root, "renar", "adapts", "a1.md"))
		}, "renar/adapts/a1.md"},
		"dangling link": {func(root string) error {
			return os.Symlink("gone.md", filepath.Join(root, "renar", "specs", "s3.md"))
		}, "renar/specs/s3.md"},
		"specs is a file": {func(root string) error {
			if err := os.RemoveAll(filepath.Join(root, "renar", "specs")); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(root, "renar", "specs"), []byte("x"), 0o644)
		}, "renar/specs/"},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, "renar/specs/s1.md", okSpec)
			if err := os.MkdirAll(filepath.Join(root, "renar", "adapts"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := c.setup(root); err != nil {
				t.Fatal(err)
			}
			ns := New(nil).Gather(context.Background(), runners.NewScope(root, facts.Request{}))
			if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, c.want) {
				t.Fatalf("namespace %s %q, want an error naming %s", ns.Status, ns.Reason, c.want)
			}
		})
	}
}

// TestNonParseErrorIsNamespaceError: the artifact readers promise a
// *ParseError for everything wrong with a file's text; any other error they
// return (none does today) is a namespace error naming the file, not a
// panic on the nil document and not a file read as half a SPEC.
func TestNonParseErrorIsNamespaceError(t *testing.T) {
	defer func(p func(string, []byte) (*artifacts.Doc, error)) { parseDoc = p }(parseDoc)
	parseDoc = func(file string, _ []byte) (*artifacts.Doc, error) {
		return nil, fmt.Errorf("decode %s: %w", file, fs.ErrPermission)
	}
	root := t.TempDir()
	write(t, root, "renar/specs/s1.md", okSpec)
	ns := New(nil).Gather(context.Background(), runners.NewScope(root, facts.Request{}))
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "renar/specs/s1.md") || !strings.Contains(ns.Reason, "permission denied") {
		t.Fatalf("namespace %s %q, want an error naming renar/specs/s1.md", ns.Status, ns.Reason)
	}
}
