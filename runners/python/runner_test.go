package python

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/internal/pyscan"
	"github.com/tausik/tausik/runners/internal/pyscan/pyscantest"
	"github.com/tausik/tausik/runners/internal/sourcetest"
)

func gather(t *testing.T, root string, req facts.Request) facts.Namespace {
	t.Helper()
	r := New()
	if r.Namespace() != "python" {
		t.Fatalf("namespace %q", r.Namespace())
	}
	var _ runners.Runner = r
	return r.Gather(context.Background(), runners.NewScope(root, req))
}

// TestGatherIsRepoWide: every .py file counts, whatever files the request
// names; other files, symlinks and directories are left out.
func TestGatherIsRepoWide(t *testing.T) {
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "pkg/b.py", "from a import A\nclass B(A):\n    def run(self): pass\n")
	sourcetest.WriteFile(t, root, "a.py", "class A:\n    x = 1\n")
	sourcetest.WriteFile(t, root, "broken.py", "class C:\n    def f(self):\n        return (\n")
	sourcetest.WriteFile(t, root, "notes.txt", "class NotPython: pass\n")
	sourcetest.WriteFile(t, root, "dir.py/inner.txt", "")
	if err := os.Symlink("a.py", filepath.Join(root, "link.py")); err != nil {
		t.Fatal(err)
	}
	ns := gather(t, root, facts.Request{Explicit: true, Files: []string{"a.py"}})
	if ns.Status != facts.StatusOK {
		t.Fatalf("status %s: %s", ns.Status, ns.Reason)
	}
	got := ns.Data.(facts.Python).Files
	want := []facts.PythonFile{
		{Path: "a.py", Parsed: true, Classes: []facts.PythonClass{pyscantest.Cls("A", 1, nil, []string{"x"})}},
		{Path: "broken.py", Error: &facts.PythonError{Line: 3, Msg: "'(' was never closed"}, Classes: []facts.PythonClass{}},
		{Path: "pkg/b.py", Parsed: true, Classes: []facts.PythonClass{pyscantest.Cls("B", 2, []string{"A"}, []string{"run"})}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("files:\n%+v\nwant:\n%+v", got, want)
	}
}

// TestGatherGitRepo: in a git work tree the listing is git's (tracked and
// untracked-not-ignored); a tracked file deleted from the work tree is gone.
func TestGatherGitRepo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: no git on PATH")
	}
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "kept.py", "class Kept: pass\n")
	sourcetest.WriteFile(t, root, "deleted.py", "class Deleted: pass\n")
	sourcetest.WriteFile(t, root, ".gitignore", "ignored.py\n")
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	sourcetest.WriteFile(t, root, "ignored.py", "class Ignored: pass\n")
	sourcetest.WriteFile(t, root, "untracked.py", "class Untracked: pass\n")
	if err := os.Remove(filepath.Join(root, "deleted.py")); err != nil {
		t.Fatal(err)
	}
	ns := gather(t, root, facts.Request{})
	if ns.Status != facts.StatusOK {
		t.Fatalf("status %s: %s", ns.Status, ns.Reason)
	}
	var names []string
	for _, f := range ns.Data.(facts.Python).Files {
		for _, c := range f.Classes {
			names = append(names, f.Path+":"+c.Name)
		}
	}
	if want := []string{"kept.py:Kept", "untracked.py:Untracked"}; !reflect.DeepEqual(names, want) {
		t.Errorf("classes %v, want %v", names, want)
	}
}

// TestGatherUnreadableFileIsAnError: a file that exists but cannot be read
// turns the namespace into an error naming it, never a listing without it.
func TestGatherUnreadableFileIsAnError(t *testing.T) {
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "ok.py", "class A: pass\n")
	sourcetest.WriteFile(t, root, "bad.py", "class B: pass\n")
	orig := openFile
	t.Cleanup(func() { openFile = orig })
	openFile = func(name string) (io.ReadCloser, error) {
		if filepath.Base(name) == "bad.py" {
			return nil, errors.New("input/output error")
		}
		return orig(name)
	}
	ns := gather(t, root, facts.Request{})
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "scan bad.py: input/output error") {
		t.Fatalf("status %s, reason %q; want an error naming bad.py", ns.Status, ns.Reason)
	}
	if ns.Data != nil {
		t.Errorf("an error namespace carries data: %+v", ns.Data)
	}
}

// TestScanFilesCancelled: a cancelled context is an error, not a short list.
func TestScanFilesCancelled(t *testing.T) {
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "a.py", "class A: pass\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if files, err := ScanFiles(ctx, root, []string{"a.py"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("ScanFiles = %v, %v; want context.Canceled", files, err)
	}
}

// TestScanFilesMatchesScan: scanning many files on reused buffers (mixed
// encodings, sizes and errors) gives what a fresh Scan gives for each file.
func TestScanFilesMatchesScan(t *testing.T) {
	root := sourcetest.TempDir(t)
	contents := []string{
		"# coding: latin-1\nclass Caf\xe9: \xe9 = 1\n",
		"# coding: latin-1\nclass Plain: x = 1\n",
		"class U:\n    ü = '" + strings.Repeat("long ", 5000) + "'\n",
		"\xef\xbb\xbfclass Bom: pass\n",
		"class Broken(\n",
		"# coding: koi8-r\nclass K: y = '\xc1\xc2'\n",
		"class Small: pass\n",
	}
	var paths []string
	for i := range 60 {
		p := filepath.ToSlash(filepath.Join("d", string(rune('a'+i%26)), strings.Repeat("f", i/26+1)+".py"))
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
		if want := pyscan.Scan(f.Path, src); !reflect.DeepEqual(f, want) {
			t.Errorf("%s: ScanFiles %+v, Scan %+v", f.Path, f, want)
		}
	}
}

// TestNamespaceJSON pins the JSON shape policies see.
func TestNamespaceJSON(t *testing.T) {
	ns := facts.OK(facts.Python{Files: []facts.PythonFile{
		pyscan.Scan("a/b.py", []byte("@d\nclass A(mod.B, Generic[T], metaclass=M):\n    def run(self): pass\n")),
		pyscan.Scan("bad.py", []byte("x = 1\n  y = 2\n")),
		pyscan.Scan("empty.py", nil),
	}})
	g, err := ns.Generic()
	if err != nil {
		t.Fatal(err)
	}
	b, err := facts.Canonical(g)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"files":[` +
		`{"classes":[{"bases":["B"],"line":2,"name":"A","public":["run"]}],"error":null,"parsed":true,"path":"a/b.py"},` +
		`{"classes":[],"error":{"line":2,"msg":"unexpected indent"},"parsed":false,"path":"bad.py"},` +
		`{"classes":[],"error":null,"parsed":true,"path":"empty.py"}],"status":"ok"}`
	if string(b) != want {
		t.Errorf("JSON\n%s\nwant\n%s", b, want)
	}
}

// TestNamespacePlainMatchesJSON: the fast conversion of the python facts to
// plain values gives what a JSON round trip gives, over the whole test
// corpus (parsed and unparseable files, nested classes, odd encodings).
func TestNamespacePlainMatchesJSON(t *testing.T) {
	var p facts.Python
	for i, in := range testCorpus(t) {
		p.Files = append(p.Files, pyscan.Scan(fmt.Sprintf("f%d.py", i), in.Src))
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	want, err := facts.DecodeGeneric(b)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Plain(); !reflect.DeepEqual(any(got), want) {
		t.Error("Plain() differs from the JSON round trip")
	}
}
