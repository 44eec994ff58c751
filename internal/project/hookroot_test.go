package project

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tausik/tausik/engine/config"
)

// TestHookRootIgnoresHome: home's .tausik is the user tier, not a project,
// even when a tausik.db landed there; a project under home is its own root,
// and a directory under home with no store of its own has none.
func TestHookRootIgnoresHome(t *testing.T) {
	home := t.TempDir()
	for _, d := range []string{filepath.Join(home, config.StateDir), filepath.Join(home, "proj", config.StateDir), filepath.Join(home, "loose", "src")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(home, config.StateDir, "tausik.db"), filepath.Join(home, "proj", config.StateDir, "tausik.db")} {
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	root, err := HookRoot(HookPlace{CWD: filepath.Join(home, "proj")}, getenv)
	if err != nil || root != filepath.Join(home, "proj") {
		t.Errorf("project under home: root %q, %v", root, err)
	}
	if root, err := HookRoot(HookPlace{CWD: filepath.Join(home, "loose", "src")}, getenv); !errors.Is(err, ErrNoProject) {
		t.Errorf("no store but home's: root %q, %v; want ErrNoProject", root, err)
	}
	if root, err := HookRoot(HookPlace{CWD: filepath.Join(home, "proj"), Project: "proj"}, getenv); !errors.Is(err, ErrNoProject) {
		t.Errorf("relative project directory: root %q, %v; want ErrNoProject", root, err)
	}
	if root, err := HookRoot(HookPlace{CWD: "src"}, getenv); !errors.Is(err, ErrOutsideProject) {
		t.Errorf("relative cwd: root %q, %v; want ErrOutsideProject", root, err)
	}
}
