package hosts

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// TestUnreadableProfileIsNamespaceError: a profile, or a file in it, that
// is on disk but cannot be read (a directory where a file belongs, a file
// where a directory belongs) is not "nothing installed": the namespace is
// an error naming the file, so every host gate is COULD_NOT_RUN.
func TestUnreadableProfileIsNamespaceError(t *testing.T) {
	for name, c := range map[string]struct {
		dirs  []string
		files []string
		want  string
	}{
		"settings file is a directory": {dirs: []string{".claude/settings.json"}, want: ".claude/settings.json"},
		"MCP file is a directory":      {dirs: []string{".cursor", ".cursor/mcp.json"}, want: ".cursor/mcp.json"},
		"plugins is a file":            {dirs: []string{".opencode"}, files: []string{".opencode/plugins"}, want: ".opencode/plugins"},
		"plugin file is a directory":   {dirs: []string{".kilo/plugins/tausik.js"}, want: ".kilo/plugins/tausik.js"},
		"copilot profile is a file":    {dirs: []string{".github"}, files: []string{".github/hooks"}, want: ".github/hooks"},
		"profile is a file":            {files: []string{".windsurf"}, want: ".windsurf"},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			for _, d := range c.dirs {
				if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range c.files {
				if err := os.WriteFile(filepath.Join(root, f), []byte("{}"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ns := New(nil).Gather(context.Background(), runners.NewScope(root, facts.Request{}))
			if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, c.want) {
				t.Fatalf("namespace %s %q, want an error naming %s", ns.Status, ns.Reason, c.want)
			}
		})
	}
}

// TestUnreadableCopyTargetIsNamespaceError: a deployed copy's target that is
// a file where the directory belongs is not "not deployed" (which passes):
// the namespace is an error naming it.
func TestUnreadableCopyTargetIsNamespaceError(t *testing.T) {
	root := t.TempDir()
	for rel, body := range map[string]string{"scripts/guard.py": "x = 1\n", ".claude/scripts": "not a directory\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := New(nil, WithCopies([]Copy{{Source: "scripts/", Targets: []string{".claude/scripts/"}}}))
	ns := r.Gather(context.Background(), runners.NewScope(root, facts.Request{}))
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, ".claude/scripts") {
		t.Fatalf("namespace %s %q, want an error naming .claude/scripts", ns.Status, ns.Reason)
	}
}

// TestUnreadableCopyParentIsNamespaceError: a file where a directory on the
// target's path belongs is an error too, as for profiles.
func TestUnreadableCopyParentIsNamespaceError(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for rel, body := range map[string]string{"scripts/guard.py": "x = 1\n", "deploy": "not a directory\n"} {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := New(nil, WithCopies([]Copy{{Source: "scripts/", Targets: []string{"deploy/scripts/"}}}))
	ns := r.Gather(context.Background(), runners.NewScope(root, facts.Request{}))
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "deploy/scripts/") {
		t.Fatalf("namespace %s %q, want an error naming deploy/scripts/", ns.Status, ns.Reason)
	}
}
