package goscan

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/internal/sourcetest"
	"github.com/tausik/tausik/store"
)

// importPaths gathers root and maps each file's path to its import path.
func importPaths(t *testing.T, r *Runner, root string) map[string]string {
	t.Helper()
	ns := r.Gather(context.Background(), runners.NewScope(root, facts.Request{}))
	if ns.Status != facts.StatusOK {
		t.Fatalf("status %s: %s", ns.Status, ns.Reason)
	}
	got := map[string]string{}
	for _, f := range ns.Data.(facts.Go).Files {
		got[f.Path] = f.ImportPath
	}
	return got
}

// gitRepo makes root a git work tree with everything written so far
// committed, so that the listing is git's.
func gitRepo(t *testing.T, root string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "tree"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// TestImportPathNestedModules: in a git repository with a root module, a
// nested module, a directory outside both, the standard library's module
// and a vendor directory, every file gets the import path of the nearest
// go.mod at or above its directory.
func TestImportPathNestedModules(t *testing.T) {
	root := sourcetest.TempDir(t)
	for rel, src := range map[string]string{
		"app/go.mod":                          "// the app\nmodule example.com/app\n\ngo 1.22\n\nrequire golang.org/x/mod v0.43.0\n",
		"app/main.go":                         "package main\n",
		"app/web/views/v.go":                  "package views\n",
		"app/vendor/golang.org/x/mod/semv.go": "package mod\n",
		"app/tools/go.mod":                    "module \"example.com/app/tools\"\n",
		"app/tools/gen/gen.go":                "package gen\n",
		"app/tools/t.go":                      "package tools\n",
		"loose/l.go":                          "package loose\n",
		"top.go":                              "package top\n",
		"src/go.mod":                          "module std\n",
		"src/net/http/h.go":                   "package http\n",
		"src/vendor/golang.org/x/net/n.go":    "package net\n",
	} {
		sourcetest.WriteFile(t, root, rel, src)
	}
	gitRepo(t, root)
	want := map[string]string{
		"app/main.go":                         "example.com/app",
		"app/web/views/v.go":                  "example.com/app/web/views",
		"app/vendor/golang.org/x/mod/semv.go": "golang.org/x/mod",
		"app/tools/gen/gen.go":                "example.com/app/tools/gen",
		"app/tools/t.go":                      "example.com/app/tools",
		"loose/l.go":                          "",
		"top.go":                              "",
		"src/net/http/h.go":                   "net/http",
		"src/vendor/golang.org/x/net/n.go":    "golang.org/x/net",
	}
	got := importPaths(t, New(), root)
	if len(got) != len(want) {
		t.Errorf("files %v, want %v", got, want)
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: import path %q, want %q", p, got[p], w)
		}
	}
	// A root go.mod encloses every directory without a nearer one.
	sourcetest.WriteFile(t, root, "go.mod", "module example.com/mono\n")
	got = importPaths(t, New(), root)
	for p, w := range map[string]string{"top.go": "example.com/mono", "loose/l.go": "example.com/mono/loose", "app/main.go": "example.com/app"} {
		if got[p] != w {
			t.Errorf("with a root go.mod, %s: import path %q, want %q", p, got[p], w)
		}
	}
}

// TestImportPathBadGoMod: a go.mod that does not parse or names no module
// marks the .go files it encloses not parsed, naming the go.mod and line
// (files outside it keep their facts); one that cannot be read fails the
// namespace. None of them leaves a file with a guessed path.
func TestImportPathBadGoMod(t *testing.T) {
	for name, c := range map[string]struct{ gomod, want string }{
		"syntax":    {"module example.com/m\n\nrequire (\n\tgolang.org/x/mod\n)\n", "its go.mod is broken: m/go.mod:4:2: usage: require module/path v1.2.3"},
		"no module": {"// nothing but a comment\ngo 1.22\n", "m/go.mod:1: no module line"},
		"quotes":    {"module \"example.com/m\n", "m/go.mod:1:"},
	} {
		t.Run(name, func(t *testing.T) {
			root := sourcetest.TempDir(t)
			sourcetest.WriteFile(t, root, "m/go.mod", c.gomod)
			sourcetest.WriteFile(t, root, "m/a.go", "package m\n")
			sourcetest.WriteFile(t, root, "go.mod", "module example.com/top\n")
			sourcetest.WriteFile(t, root, "b.go", "package top\n\ntype B struct{ X int }\n")
			ns := gather(t, root, facts.Request{})
			if ns.Status != facts.StatusOK {
				t.Fatalf("status %s, reason %q: a broken go.mod spoils only the files it encloses", ns.Status, ns.Reason)
			}
			for _, f := range ns.Data.(facts.Go).Files {
				switch f.Path {
				case "m/a.go":
					if f.Parsed || f.Error == nil || f.Error.Line != 1 || !strings.Contains(f.Error.Msg, c.want) || f.ImportPath != "" {
						t.Errorf("m/a.go under the broken go.mod: %+v %+v; want not parsed, an error with %q", f, f.Error, c.want)
					}
				case "b.go":
					if !f.Parsed || f.ImportPath != "example.com/top" || len(f.Structs) != 1 {
						t.Errorf("b.go outside it: %+v", f)
					}
				}
			}
		})
	}
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "go.mod", "module example.com/m\n")
	sourcetest.WriteFile(t, root, "a.go", "package m\n")
	orig := openFile
	t.Cleanup(func() { openFile = orig })
	openFile = func(name string) (io.ReadCloser, error) {
		if filepath.Base(name) == "go.mod" {
			return nil, errors.New("input/output error")
		}
		return orig(name)
	}
	ns := gather(t, root, facts.Request{})
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "read go.mod: input/output error") {
		t.Fatalf("status %s, reason %q; want an error naming go.mod", ns.Status, ns.Reason)
	}
}

// TestImportPathFollowsGoModEdits: with the fact cache warm, editing,
// adding and deleting a go.mod changes the import paths at once, though no
// .go file changed and none is read again.
func TestImportPathFollowsGoModEdits(t *testing.T) {
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "go.mod", "module example.com/one\n")
	sourcetest.WriteFile(t, root, "pkg/p.go", "package pkg\n")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(root, "pkg", "p.go"), old, old); err != nil {
		t.Fatal(err)
	}
	time.Sleep(150 * time.Millisecond) // past the racy window of the file's change time
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r := New(runners.WithCache(st))
	opened := sourcetest.CountOpens(t, root, &openFile)
	if got := importPaths(t, r, root)["pkg/p.go"]; got != "example.com/one/pkg" {
		t.Fatalf("import path %q", got)
	}
	opened()
	steps := []struct {
		write, remove, want string
	}{
		{write: "module example.com/two\n", want: "example.com/two/pkg"},
		{remove: "go.mod", want: ""},
	}
	for _, s := range steps {
		if s.write != "" {
			sourcetest.WriteFile(t, root, "go.mod", s.write)
		}
		if s.remove != "" {
			if err := os.Remove(filepath.Join(root, s.remove)); err != nil {
				t.Fatal(err)
			}
		}
		if got := importPaths(t, r, root)["pkg/p.go"]; got != s.want {
			t.Errorf("after the go.mod step %+v: import path %q, want %q", s, got, s.want)
		}
		for _, p := range opened() {
			if p == "pkg/p.go" {
				t.Errorf("the unchanged pkg/p.go was read again")
			}
		}
	}
}
