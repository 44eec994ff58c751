package goscan

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/internal/sourcetest"
)

func gather(t *testing.T, root string, req facts.Request) facts.Namespace {
	t.Helper()
	r := New()
	if r.Namespace() != "go" {
		t.Fatalf("namespace %q", r.Namespace())
	}
	var _ runners.Runner = r
	return r.Gather(context.Background(), runners.NewScope(root, req))
}

// TestGatherIsRepoWide: every .go file counts, whatever files the request
// names; other files, symlinks and directories are left out, and a file
// that does not parse is a fact, not a failure.
func TestGatherIsRepoWide(t *testing.T) {
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "pkg/b.go", "package pkg\n\ntype B struct{ A }\n")
	sourcetest.WriteFile(t, root, "a.go", "package main\n\nfunc (a *A) Run() {}\n")
	sourcetest.WriteFile(t, root, "broken.go", "package main\n\nfunc f() {\n")
	sourcetest.WriteFile(t, root, "notes.txt", "type NotGo struct{}\n")
	sourcetest.WriteFile(t, root, "dir.go/inner.txt", "")
	if err := os.Symlink("a.go", filepath.Join(root, "link.go")); err != nil {
		t.Fatal(err)
	}
	ns := gather(t, root, facts.Request{Explicit: true, Files: []string{"a.go"}})
	if ns.Status != facts.StatusOK {
		t.Fatalf("status %s: %s", ns.Status, ns.Reason)
	}
	got := ns.Data.(facts.Go).Files
	want := []facts.GoFile{
		{Path: "a.go", Package: "main", Parsed: true, Imports: map[string]string{}, Structs: []facts.GoStruct{}, Methods: []facts.GoMethod{{Recv: "A", Name: "Run", Line: 3}}},
		{Path: "broken.go", Package: "main", Error: &facts.GoError{Line: 3, Msg: "expected '}', found 'EOF'"}, Imports: map[string]string{}, Structs: []facts.GoStruct{}, Methods: []facts.GoMethod{}},
		{Path: "pkg/b.go", Package: "pkg", Parsed: true, Imports: map[string]string{}, Structs: []facts.GoStruct{{Name: "B", Line: 3, Fields: []string{"A"}, Bases: []string{"A"}}}, Methods: []facts.GoMethod{}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("files:\n%+v\nwant:\n%+v", got, want)
	}
}

// TestGatherNoGoFiles: a repository without Go (a Python project) has an
// ok namespace with an empty list, not a missing one.
func TestGatherNoGoFiles(t *testing.T) {
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "app.py", "class App: pass\n")
	ns := gather(t, root, facts.Request{})
	if ns.Status != facts.StatusOK {
		t.Fatalf("status %s: %s", ns.Status, ns.Reason)
	}
	g, err := ns.Generic()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := facts.Canonical(g); string(b) != `{"files":[],"status":"ok"}` {
		t.Errorf("JSON %s", b)
	}
}

// TestGatherUnreadableFileIsAnError: a file that exists but cannot be read
// turns the namespace into an error naming it, never a listing without it.
func TestGatherUnreadableFileIsAnError(t *testing.T) {
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "ok.go", "package ok\n")
	sourcetest.WriteFile(t, root, "bad.go", "package ok\n")
	orig := openFile
	t.Cleanup(func() { openFile = orig })
	openFile = func(name string) (io.ReadCloser, error) {
		if filepath.Base(name) == "bad.go" {
			return nil, errors.New("input/output error")
		}
		return orig(name)
	}
	ns := gather(t, root, facts.Request{})
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "scan bad.go: input/output error") {
		t.Fatalf("status %s, reason %q; want an error naming bad.go", ns.Status, ns.Reason)
	}
	if ns.Data != nil {
		t.Errorf("an error namespace carries data: %+v", ns.Data)
	}
}

// TestScanFilesCancelled: a cancelled context is an error, not a short list.
func TestScanFilesCancelled(t *testing.T) {
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "a.go", "package a\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if files, err := ScanFiles(ctx, root, []string{"a.go"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("ScanFiles = %v, %v; want context.Canceled", files, err)
	}
}

// TestScanFilesMatchesScan: parsing many files on reused buffers (sizes
// that grow and shrink, errors among them) gives what Scan gives for each.
func TestScanFilesMatchesScan(t *testing.T) {
	root := sourcetest.TempDir(t)
	contents := []string{
		"package a\n\ntype Big struct{ S string }\n\nvar s = `" + strings.Repeat("long ", 5000) + "`\n",
		"package a\n\ntype Small struct{ X int }\n",
		"package a\n\ntype Broken struct {\n",
		"package a\n\nfunc (s *Small) Do() {}\n",
	}
	var paths []string
	for i := range 40 {
		p := filepath.ToSlash(filepath.Join("d", string(rune('a'+i%26)), strings.Repeat("f", i/26+1)+".go"))
		sourcetest.WriteFile(t, root, p, contents[i%len(contents)])
		paths = append(paths, p)
	}
	got, err := ScanFiles(context.Background(), root, paths)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(paths) {
		t.Fatalf("%d files, want %d", len(got), len(paths))
	}
	for i, f := range got {
		if i > 0 && got[i-1].Path >= f.Path {
			t.Fatalf("not sorted by path: %s before %s", got[i-1].Path, f.Path)
		}
		src, err := os.ReadFile(filepath.Join(root, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		if want := Scan(f.Path, src); !reflect.DeepEqual(f, want) {
			t.Errorf("%s: ScanFiles %+v, Scan %+v", f.Path, f, want)
		}
	}
}
