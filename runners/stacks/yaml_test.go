package stacks

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tausik/tausik/runners/cache"
	"github.com/tausik/tausik/runners/internal/sourcetest"
)

const manifest = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n"

// settled waits until abs's stamp is past the racy margin
// (cache.Stamp.Racy: 100 ms, 2 s on a file system of whole seconds), and
// returns it.
func settled(t *testing.T, abs string) cache.Stamp {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		st, ok := stampOf(abs)
		if !ok {
			t.Fatalf("no stamp for %s", abs)
		}
		if !st.Racy(time.Now()) || time.Now().After(deadline) {
			return st
		}
	}
}

// TestManifestKindRemembered: a YAML file still since it was read is not
// read again while its stamp holds; any change of it is read afresh, and a
// file changed within the racy margin is not remembered.
func TestManifestKindRemembered(t *testing.T) {
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "deploy/app.yaml", manifest)
	written := time.Now()
	abs := filepath.Join(root, "deploy", "app.yaml")
	if got := roots(gatherAt(t, root), "kubernetes"); !slices.Equal(got, []string{"deploy:app.yaml"}) {
		t.Fatalf("kubernetes roots %v", got)
	}
	st, _ := stampOf(abs)
	if _, ok := manifests.get(abs, st); ok && time.Since(written) < 100*time.Millisecond {
		t.Fatal("a file written within the racy margin was remembered: its stamp may hide the next change")
	}
	st = settled(t, abs)
	gatherAt(t, root)
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

// TestManifestKindNotThroughALink: a remembered file whose directory is
// moved out of the project and replaced by a symbolic link to it keeps its
// stamp, but is outside the project now, where the detection reads
// nothing: it must not be reported from memory.
func TestManifestKindNotThroughALink(t *testing.T) {
	// git's listing still names a committed file behind the link.
	root, away := sourcetest.GitRepo(t, map[string]string{"deploy/app.yaml": manifest}), sourcetest.TempDir(t)
	abs := filepath.Join(root, "deploy", "app.yaml")
	st := settled(t, abs)
	gatherAt(t, root)
	if _, ok := manifests.get(abs, st); !ok {
		t.Fatal("a still file is not remembered")
	}
	if err := os.Rename(filepath.Join(root, "deploy"), filepath.Join(away, "deploy")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(away, "deploy"), filepath.Join(root, "deploy")); err != nil {
		t.Fatal(err)
	}
	if now, _ := stampOf(abs); now != st {
		t.Fatalf("the moved file's stamp changed (%+v → %+v): the attack is not reproduced", st, now)
	}
	if got := roots(gatherAt(t, root), "kubernetes"); len(got) != 0 {
		t.Fatalf("a manifest outside the project, through a link, was reported from memory: %v", got)
	}
}
