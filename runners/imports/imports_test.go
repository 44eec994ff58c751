package imports

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/internal/sourcetest"
	"github.com/tausik/tausik/store"
)

func gather(t *testing.T, r *Runner, root string) map[string]facts.ImportFile {
	t.Helper()
	ns := r.Gather(context.Background(), runners.NewScope(root, facts.Request{}))
	if ns.Status != facts.StatusOK {
		t.Fatalf("status %s: %s", ns.Status, ns.Reason)
	}
	out := map[string]facts.ImportFile{}
	for _, f := range ns.Data.(facts.Imports).Files {
		out[f.Path] = f
	}
	return out
}

func imp(module, raw string, line int, relative bool, names ...string) facts.Import {
	if names == nil {
		names = []string{}
	}
	return facts.Import{Module: module, Raw: raw, Line: line, Relative: relative, Names: names}
}

// tree is a small polyglot repository: a src-layout Python package and a
// Go module with a nested module.
func tree(t *testing.T) string {
	root := sourcetest.TempDir(t)
	for p, c := range map[string]string{
		"src/shop/__init__.py":     "",
		"src/shop/web/__init__.py": "from . import views\n",
		"src/shop/web/views.py":    "import os, shop.db as db\nfrom shop.db import repo, helper\nfrom ..db.repo import find\nfrom ... import x\nfrom .sub import (a,\n    b as c)\nfrom shop import *\ns = 'import fake'\n# import commented\ndef f():\n    import json\n",
		"src/shop/db/__init__.py":  "",
		"src/shop/db/repo.py":      "if True: import sys; from . import nope\n",
		"src/shop/db/broken.py":    "import os\ndef f(:\n",
		"tools/gen.py":             "import shop.web\nfrom . import x\n",
		"go.mod":                   "module example.com/app\n\ngo 1.22\n",
		"main.go":                  "package main\n\nimport (\n\t\"fmt\"\n\tw \"example.com/app/web\"\n\t_ \"embed\"\n)\n\nfunc main() { fmt.Println(w.X) }\n",
		"web/web.go":               "package web\n\nimport \"example.com/app/internal/db\"\n\nvar X = db.Y\n",
		"web/web_test.go":          "package web_test\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
		"tools/sub/go.mod":         "module example.com/tools\n",
		"tools/sub/cmd/x/x.go":     "package main\n\nimport \"example.com/app/web\"\n",
		"web/broken.go":            "package web\n\nimport (\n",
	} {
		sourcetest.WriteFile(t, root, p, c)
	}
	return root
}

// TestPython resolves absolute, relative and from-imports against the
// repository's packages, with the line of each statement.
func TestPython(t *testing.T) {
	got := gather(t, New(), tree(t))
	views := got["src/shop/web/views.py"]
	if views.Module != "shop.web.views" || views.Package != "shop.web" || !views.Parsed || views.Language != LangPython {
		t.Fatalf("views: %+v", views)
	}
	want := []facts.Import{
		imp("os", "os", 1, false),
		imp("shop.db", "shop.db", 1, false),
		imp("shop.db.repo", "shop.db", 2, false, "repo"),
		imp("shop.db", "shop.db", 2, false, "helper"),
		imp("shop.db.repo", "..db.repo", 3, true, "find"),
		imp("", "...", 4, true, "x"),
		imp("shop.web.sub", ".sub", 5, true, "a", "b"),
		imp("shop", "shop", 7, false, "*"),
		imp("json", "json", 11, false),
	}
	if !reflect.DeepEqual(views.Imports, want) {
		t.Errorf("views imports\n got %+v\nwant %+v", views.Imports, want)
	}
	if init := got["src/shop/web/__init__.py"]; init.Module != "shop.web" || init.Package != "shop.web" ||
		!reflect.DeepEqual(init.Imports, []facts.Import{imp("shop.web.views", ".", 1, true, "views")}) {
		t.Errorf("package __init__: %+v", init)
	}
	if repo := got["src/shop/db/repo.py"]; !reflect.DeepEqual(repo.Imports, []facts.Import{imp("sys", "sys", 1, false), imp("shop.db", ".", 1, true, "nope")}) {
		t.Errorf("one-line suite and ';': %+v", repo.Imports)
	}
	if gen := got["tools/gen.py"]; gen.Module != "gen" || gen.Package != "" || !reflect.DeepEqual(gen.Imports, []facts.Import{imp("shop.web", "shop.web", 1, false), imp("", ".", 2, true, "x")}) {
		t.Errorf("module outside a package: %+v", gen)
	}
	if b := got["src/shop/db/broken.py"]; b.Parsed || b.Error == nil || b.Error.Line != 2 || len(b.Imports) != 0 {
		t.Errorf("broken file: %+v", b)
	}
}

// TestGo reads the module path from the nearest go.mod, the package's
// import path and each import's line; a nested module is its own.
func TestGo(t *testing.T) {
	got := gather(t, New(), tree(t))
	m := got["main.go"]
	want := []facts.Import{imp("fmt", "fmt", 4, false), imp("example.com/app/web", "example.com/app/web", 5, false, "w"), imp("embed", "embed", 6, false, "_")}
	if m.Module != "example.com/app" || m.Package != "example.com/app" || m.Name != "main" || !reflect.DeepEqual(m.Imports, want) {
		t.Errorf("main.go: %+v", m)
	}
	if w := got["web/web.go"]; w.Package != "example.com/app/web" || w.Name != "web" || !reflect.DeepEqual(w.Imports, []facts.Import{imp("example.com/app/internal/db", "example.com/app/internal/db", 3, false)}) {
		t.Errorf("web.go: %+v", w)
	}
	if w := got["web/web_test.go"]; w.Package != "example.com/app/web" || w.Name != "web_test" {
		t.Errorf("external test package: %+v", w)
	}
	if x := got["tools/sub/cmd/x/x.go"]; x.Module != "example.com/tools" || x.Package != "example.com/tools/cmd/x" {
		t.Errorf("nested module: %+v", x)
	}
	if b := got["web/broken.go"]; b.Parsed || b.Error == nil || b.Error.Line != 3 || b.Error.Msg != "expected ')', found 'EOF'" || len(b.Imports) != 0 {
		t.Errorf("broken Go file: %+v %+v", b, b.Error)
	}
}

// TestBadGoMod is an error naming the go.mod, never facts with a wrong
// module path.
func TestBadGoMod(t *testing.T) {
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "go.mod", "go 1.22\n")
	sourcetest.WriteFile(t, root, "a.go", "package a\n")
	ns := New().Gather(context.Background(), runners.NewScope(root, facts.Request{}))
	if ns.Status != facts.StatusError || ns.Reason != "go.mod: no module directive" {
		t.Errorf("got %s %q", ns.Status, ns.Reason)
	}
}

// TestCache reads each file once: a warm run opens nothing and gives the
// same facts.
func TestCache(t *testing.T) {
	root := tree(t)
	st, err := store.OpenMemory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	later := runners.WithClock(func() time.Time { return time.Now().Add(time.Minute) })
	opens := sourcetest.CountOpens(t, root, &openFile)
	cold := gather(t, New(runners.WithCache(st), later), root)
	if n := len(opens()); n != 12 {
		t.Errorf("cold run opened %d files, want the 12 sources", n)
	}
	warm := gather(t, New(runners.WithCache(st), later), root)
	if got := opens(); len(got) != 0 {
		t.Errorf("warm run opened %v", got)
	}
	if !reflect.DeepEqual(cold, warm) {
		t.Errorf("warm facts differ")
	}
}
