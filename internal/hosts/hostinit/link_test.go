package hostinit

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinkedFileWrittenThroughToTarget keeps a symlinked host config a
// link: init merges into the target inside the project and writes it there.
func TestLinkedFileWrittenThroughToTarget(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"dotfiles/claude.json": "{\n  \"model\": \"opus\"\n}\n", ".mcp.json": "{}\n"})
	if err := os.MkdirAll(filepath.Join(root, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, ".claude", "settings.json")
	if err := os.Symlink("../dotfiles/claude.json", link); err != nil {
		t.Fatal(err)
	}
	p := build(t, Options{Root: root, Hosts: []string{"claude"}})
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(link)
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf(".claude/settings.json is no longer a link: %v %v", info, err)
	}
	b, err := os.ReadFile(filepath.Join(root, "dotfiles", "claude.json"))
	if err != nil || !strings.Contains(string(b), `"model": "opus"`) || !strings.Contains(string(b), "hook claude pre-tool-use") {
		t.Errorf("the link's target is not the merged file: %s %v", b, err)
	}
	if again := build(t, Options{Root: root, Hosts: []string{"claude"}}); len(again.Changed()) != 0 {
		t.Errorf("second run would change %v", again.Changed())
	}
}

// TestLinkOutOfProjectRefused: a host file (or a directory on its path)
// that links out of the project, or to nothing, is refused before anything
// is written, naming the file and where it points.
func TestLinkOutOfProjectRefused(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"claude.json": "{}\n", "dir/settings.json": "{}\n"})
	cases := map[string]func(root string) error{
		"file link out": func(root string) error {
			return os.Symlink(filepath.Join(outside, "claude.json"), filepath.Join(root, ".claude", "settings.json"))
		},
		"dangling link": func(root string) error {
			return os.Symlink("../nowhere.json", filepath.Join(root, ".claude", "settings.json"))
		},
		"directory link out": func(root string) error {
			if err := os.Remove(filepath.Join(root, ".claude")); err != nil {
				return err
			}
			return os.Symlink(filepath.Join(outside, "dir"), filepath.Join(root, ".claude"))
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			writeTree(t, root, map[string]string{".mcp.json": "{}\n"})
			if err := os.MkdirAll(filepath.Join(root, ".claude"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := setup(root); err != nil {
				t.Fatal(err)
			}
			_, err := Build(Options{Root: root, Hosts: []string{"claude"}})
			if !errors.Is(err, ErrLink) || !strings.Contains(err.Error(), ".claude/settings.json") {
				t.Fatalf("err = %v, want ErrLink naming .claude/settings.json", err)
			}
			for _, f := range []string{"claude.json", "dir/settings.json"} {
				if b, _ := os.ReadFile(filepath.Join(outside, f)); string(b) != "{}\n" {
					t.Errorf("%s outside the project changed: %q", f, b)
				}
			}
			if _, err := os.Stat(filepath.Join(root, ConfigRel)); err == nil {
				t.Error("tausik/gates.json written although the plan was refused")
			}
		})
	}
}
