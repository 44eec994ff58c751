package goscan

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/internal/sourcetest"
	"github.com/tausik/tausik/store"
)

// TestCacheReadsOnlyChanged: with a store, a second gather opens no file
// whose stamp is unchanged, an edited file is read again, and the facts are
// what an uncached scan gives every time.
func TestCacheReadsOnlyChanged(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"a/a.go":      "package a\n\n// T is wide.\ntype T struct {\n\tX, Y int\n\tBase\n}\n\n// M is a method.\nfunc (T) M() {}\n",
		"a/base.go":   "package a\n\n// Base is embedded.\ntype Base struct{ Z int }\n",
		"b/broken.go": "package b\n\nfunc (\n",
	}
	for rel, src := range files {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Hour)
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(150 * time.Millisecond) // past the racy window of the files' change times
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	opened := sourcetest.CountOpens(t, root, &openFile)
	gather := func() []facts.GoFile {
		t.Helper()
		ns := New(runners.WithCache(st)).Gather(context.Background(), runners.NewScope(root, facts.Request{}))
		if ns.Status != facts.StatusOK {
			t.Fatalf("status %s: %s", ns.Status, ns.Reason)
		}
		got := ns.Data.(facts.Go).Files
		want, err := ScanFiles(context.Background(), root, slices.Sorted(func(yield func(string) bool) {
			for rel := range files {
				if !yield(rel) {
					return
				}
			}
		}))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("cached gather:\n%+v\nuncached scan:\n%+v", got, want)
		}
		return got
	}
	gather()
	opened() // the uncached comparison scan reads everything
	if got := gather(); len(got) != 3 {
		t.Fatalf("%d files", len(got))
	}
	if got := opened(); !slices.Equal(got, []string{"a/a.go", "a/base.go", "b/broken.go"}) {
		t.Errorf("warm gather opened %v beyond the comparison scan's", got)
	}
	edited := filepath.Join(root, "a", "a.go")
	if err := os.WriteFile(edited, []byte(strings.Replace(files["a/a.go"], "X, Y int", "X, Y, W int", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	got := gather()
	if got[0].Structs[0].Fields[0] != "Base" || len(got[0].Structs[0].Fields) != 4 {
		t.Errorf("edited struct: %+v", got[0].Structs[0])
	}
}

// TestPayloadsOfThisRepository: every Go file of tausik itself caches (its
// facts read back exactly), and a payload that does not check out is a miss.
func TestPayloadsOfThisRepository(t *testing.T) {
	var paths []string
	err := filepath.WalkDir("../../..", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			rel, _ := filepath.Rel("../../..", p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ScanFiles(context.Background(), "../../..", paths)
	if err != nil || len(got) < 100 {
		t.Fatalf("%d files, %v", len(got), err)
	}
	for _, f := range got {
		payload, ok := encodeFacts(f)
		if !ok {
			t.Errorf("%s: facts do not cache", f.Path)
			continue
		}
		if back, ok := decodeFacts(f.Path, 1<<20, payload); !ok || !reflect.DeepEqual(back, f) {
			t.Errorf("%s: payload reads back as %+v", f.Path, back)
		}
	}
	f := facts.GoFile{Path: "a.go", Package: "a", Parsed: true, Imports: map[string]string{"u": "example.test/util"}, Structs: []facts.GoStruct{{Name: "T", Line: 3, Fields: []string{}, Bases: []string{}}}, Methods: []facts.GoMethod{}}
	payload, ok := encodeFacts(f)
	if !ok {
		t.Fatal("a plain file does not encode")
	}
	for name, mutate := range map[string]func(g *facts.GoFile){
		"struct name": func(g *facts.GoFile) {
			g.Structs = []facts.GoStruct{{Name: "T\xff", Line: 3, Fields: []string{}, Bases: []string{}}}
		},
		"field": func(g *facts.GoFile) {
			g.Structs = []facts.GoStruct{{Name: "T", Line: 3, Fields: []string{"F\xff"}, Bases: []string{}}}
		},
		"import":     func(g *facts.GoFile) { g.Imports = map[string]string{"u": "example.test/\xff"} },
		"error":      func(g *facts.GoFile) { g.Parsed, g.Error = false, &facts.GoError{Line: 1, Msg: "bad \xff"} },
		"method":     func(g *facts.GoFile) { g.Methods = []facts.GoMethod{{Recv: "T", Name: "M\xff", Line: 4}} },
		"nil fields": func(g *facts.GoFile) { g.Structs = []facts.GoStruct{{Name: "T", Line: 3, Bases: []string{}}} },
	} {
		g := f
		mutate(&g)
		if _, ok := encodeFacts(g); ok {
			t.Errorf("%s: facts that would not read back exactly are cached", name)
		}
	}
	for name, bad := range map[string]struct {
		path    string
		size    int64
		payload string
	}{
		"another path":  {"other.go", 1 << 20, payload},
		"past the end":  {f.Path, 1, payload},
		"unknown field": {f.Path, 1 << 20, strings.Replace(payload, `{"path"`, `{"x":1,"path"`, 1)},
		"not JSON":      {f.Path, 1 << 20, "{"},
		"null lists":    {f.Path, 1 << 20, `{"path":"` + f.Path + `","package":"p","parsed":true,"error":null,"imports":{},"structs":null,"methods":null}`},
		"null imports":  {f.Path, 1 << 20, strings.Replace(payload, `"imports":{"u":"example.test/util"}`, `"imports":null`, 1)},
		"no imports":    {f.Path, 1 << 20, strings.Replace(payload, `"imports":{"u":"example.test/util"},`, ``, 1)},
		"empty import":  {f.Path, 1 << 20, strings.Replace(payload, `"example.test/util"`, `""`, 1)},
		"import path":   {f.Path, 1 << 20, strings.Replace(payload, `"import_path":""`, `"import_path":"example.test/a"`, 1)},
	} {
		if _, ok := decodeFacts(bad.path, bad.size, bad.payload); ok {
			t.Errorf("%s: accepted", name)
		}
	}
}
