package stacks

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tausik/tausik/runners/internal/sourcetest"
)

const manifest = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n"

// TestManifestKindRemembered: a YAML file still since it was read is not
// read again while its stamp holds; any change of it is read afresh, and a
// file changed within the racy margin is not remembered.
func TestManifestKindRemembered(t *testing.T) {
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "deploy/app.yaml", manifest)
	abs := filepath.Join(root, "deploy", "app.yaml")
	if got := roots(gatherAt(t, root), "kubernetes"); !slices.Equal(got, []string{"deploy:app.yaml"}) {
		t.Fatalf("kubernetes roots %v", got)
	}
	st, _ := stampOf(abs)
	if _, ok := manifests.get(abs, st); ok {
		t.Fatal("a file written just now was remembered: its stamp may hide the next change")
	}
	time.Sleep(150 * time.Millisecond) // past the racy margin (cache.Stamp.Racy)
	gatherAt(t, root)
	st, _ = stampOf(abs)
	if kind, ok := manifests.get(abs, st); !ok || kind != "kubernetes" {
		t.Fatalf("a still file is not remembered: %q %v", kind, ok)
	}
	// What is remembered is what the detection reports, unread.
	manifests.put(abs, st, "ansible")
	f := gatherAt(t, root)
	if got := roots(f, "ansible"); !slices.Equal(got, []string{"deploy:app.yaml"}) || len(f.Stacks["kubernetes"].Roots) != 0 {
		t.Fatalf("the remembered kind was not used: ansible %v, kubernetes %v", got, roots(f, "kubernetes"))
	}
	// Rewritten, the file is read again, whatever was remembered.
	if err := os.WriteFile(abs, []byte("name: not a manifest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f = gatherAt(t, root)
	if len(f.Stacks["kubernetes"].Roots)+len(f.Stacks["ansible"].Roots) != 0 {
		t.Fatalf("a rewritten file kept its remembered kind: %v", f.Stacks)
	}
}
