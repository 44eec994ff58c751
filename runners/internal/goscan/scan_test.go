package goscan

import (
	"go/token"
	"reflect"
	"slices"
	"testing"

	"github.com/tausik/tausik/facts"
)

// scanSrc is a file holding every shape of struct, embedding and method the
// runner reads or leaves out.
const scanSrc = `package shop

import (
	"net/http"

	"example.test/lib"
)

type (
	// Product has named, embedded, unexported and blank fields.
	Product struct {
		Base
		*Stock
		lib.Pricing
		*lib.Audit
		Page[int]
		*lib.Table[string, int]
		audit
		io.Reader
		Name, sku, Title string
		_     int
		Inner struct{ Hidden int }
	}

	// Level is a named type that is not a struct.
	Level int

	// Alias is an alias of a struct, not a struct.
	Alias = Product

	// Copy is defined from another named type, not a struct literal.
	Copy Product

	// Page is generic.
	Page[T any] struct{ Items []T }
)

// Empty has nothing.
type Empty struct{}

// Sink is an interface.
type Sink interface{ Write() }

// Label is on a value receiver.
func (p Product) Label() string { return p.Name }

// Buy is on a pointer receiver.
func (p *Product) Buy() { type Local struct{ Wide int }; _ = Local{} }

func (p *Product) restock() {}

// Next is on a generic receiver.
func (p *Page[T]) Next() {}

// Both is on a parenthesised receiver.
func (p (*Product)) Both() {}

// Up is on a type that is not a struct.
func (l Level) Up() Level { return l + 1 }

// Handle is a function, not a method.
func Handle(w http.ResponseWriter) {}
`

// TestScan: struct facts are package-level struct types, with exported
// field names and every embedded type reduced to its name and qualifier;
// method facts are every exported method, whatever the receiver.
func TestScan(t *testing.T) {
	got := Scan("shop/product.go", []byte(scanSrc))
	want := facts.GoFile{
		Path: "shop/product.go", Package: "shop", Parsed: true,
		Imports: map[string]string{"http": "net/http", "lib": "example.test/lib"},
		Structs: []facts.GoStruct{
			{Name: "Product", Line: 11,
				Fields: []string{"Audit", "Base", "Inner", "Name", "Page", "Pricing", "Reader", "Stock", "Table", "Title"},
				Bases:  []string{"Base", "Stock", "lib.Pricing", "lib.Audit", "Page", "lib.Table", "audit", "io.Reader"}},
			{Name: "Page", Line: 35, Fields: []string{"Items"}, Bases: []string{}},
			{Name: "Empty", Line: 39, Fields: []string{}, Bases: []string{}},
		},
		Methods: []facts.GoMethod{
			{Recv: "Product", Name: "Label", Line: 45},
			{Recv: "Product", Name: "Buy", Line: 48},
			{Recv: "Page", Name: "Next", Line: 53},
			{Recv: "Product", Name: "Both", Line: 56},
			{Recv: "Level", Name: "Up", Line: 59},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Scan:\n%+v\nwant:\n%+v", got, want)
	}
}

// scanErrorCases are sources go/parser rejects, with the package name and
// the error Scan reports.
var scanErrorCases = []struct {
	src, pkg string
	err      facts.GoError
}{
	{"package app\n\ntype Config struct {\n\tName string\n\tPort int,\n}\n\ntype Ok struct{ A int }\n", "app", facts.GoError{Line: 5, Msg: "expected ';', found ','"}},
	{"type T struct{}\n", "", facts.GoError{Line: 1, Msg: "expected 'package', found 'type'"}},
	{"package a\n\nfunc f() { x := \"\x00\" }\n", "a", facts.GoError{Line: 3, Msg: "illegal character NUL"}},
	{"", "", facts.GoError{Line: 1, Msg: "expected 'package', found 'EOF'"}},
	{"package a\n\n//line other.go:100\ntype T struct {\n\tA int,\n}\n", "a", facts.GoError{Line: 5, Msg: "expected ';', found ','"}},
}

// TestScanErrors: a file go/parser rejects has the first error's line and
// message and nothing else, never a partial list; the package name is kept
// when the package clause parsed.
func TestScanErrors(t *testing.T) {
	for _, tc := range scanErrorCases {
		got := Scan("x.go", []byte(tc.src))
		want := facts.GoFile{Path: "x.go", Package: tc.pkg, Error: &tc.err, Imports: map[string]string{}, Structs: []facts.GoStruct{}, Methods: []facts.GoMethod{}}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Scan(%q):\n%+v (%+v)\nwant:\n%+v (%+v)", tc.src, got, got.Error, want, want.Error)
		}
	}
}

// importsSrc has every kind of import and //line directives.
const importsSrc = "package a\n\nimport (\n\t\"bytes\"\n\tu \"example.test/one/util\"\n\t_ \"embed\"\n\t. \"strings\"\n" +
	"\t\"gopkg.in/yaml.v3\"\n\t\"example.test/two/util\"\n)\n\n" +
	"//line gen.y:200\ntype W struct {\n\tbytes.Buffer\n\t*u.Helper[int]\n\tBuilder\n}\n\n//line gen.y:1\nfunc (w W) Run() {}\n"

// TestScanImportsAndLineDirectives: an import binds its explicit name, else
// its path's last element when that is an identifier; blank and dot imports
// bind nothing, and the first of two imports of one name wins. //line
// directives move no line.
func TestScanImportsAndLineDirectives(t *testing.T) {
	got := Scan("a/w.go", []byte(importsSrc))
	want := facts.GoFile{
		Path: "a/w.go", Package: "a", Parsed: true,
		Imports: map[string]string{"bytes": "bytes", "u": "example.test/one/util", "util": "example.test/two/util"},
		Structs: []facts.GoStruct{{Name: "W", Line: 13, Fields: []string{"Buffer", "Builder", "Helper"}, Bases: []string{"bytes.Buffer", "u.Helper", "Builder"}}},
		Methods: []facts.GoMethod{{Recv: "W", Name: "Run", Line: 20}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Scan:\n%+v\nwant:\n%+v", got, want)
	}
}

// TestNamespaceJSON pins the JSON shape policies see.
func TestNamespaceJSON(t *testing.T) {
	a := Scan("a/b.go", []byte("package a\n\ntype A struct {\n\t*lib.B\n\tx int\n}\n\nfunc (a *A) Run() {}\n"))
	a.ImportPath = "example.test/m/a"
	ns := facts.OK(facts.Go{Files: []facts.GoFile{a, Scan("bad.go", []byte("package a\n\nfunc (\n"))}})
	g, err := ns.Generic()
	if err != nil {
		t.Fatal(err)
	}
	b, err := facts.Canonical(g)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"files":[` +
		`{"error":null,"import_path":"example.test/m/a","imports":{},"methods":[{"line":8,"name":"Run","recv":"A"}],"package":"a","parsed":true,"path":"a/b.go",` +
		`"structs":[{"bases":["lib.B"],"fields":["B"],"line":3,"name":"A"}]},` +
		`{"error":{"line":3,"msg":"expected ')', found 'EOF'"},"import_path":"","imports":{},"methods":[],"package":"a","parsed":false,"path":"bad.go","structs":[]}],"status":"ok"}`
	if string(b) != want {
		t.Errorf("JSON\n%s\nwant\n%s", b, want)
	}
}

// fuzzSeeds start FuzzScan's corpus.
var fuzzSeeds = []string{
	scanSrc,
	"package a\n\ntype T[K comparable, V any] struct{ *pkg.U[K, V]; M map[K]V }\n",
	"package a\n\nfunc (T) M() {}\nfunc (*T[_]) N() {}\n",
}

// FuzzScan: whatever the bytes, Scan does not panic and keeps its contract:
// parsed or an error, never both; no partial facts for a broken file; only
// exported names as fields (sorted, unique) and methods.
func FuzzScan(f *testing.F) {
	for _, seed := range fuzzSeeds {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		got := Scan("f.go", src)
		if got.Parsed == (got.Error != nil) || got.Structs == nil || got.Methods == nil {
			t.Fatalf("contract broken: %+v", got)
		}
		if !got.Parsed && (len(got.Structs) > 0 || len(got.Methods) > 0 || got.Error.Line < 1) {
			t.Fatalf("a broken file with facts: %+v", got)
		}
		for _, s := range got.Structs {
			if s.Fields == nil || s.Bases == nil || !slices.IsSorted(s.Fields) || len(slices.Compact(slices.Clone(s.Fields))) != len(s.Fields) {
				t.Fatalf("struct %+v", s)
			}
			for _, n := range s.Fields {
				if !token.IsExported(n) {
					t.Fatalf("unexported field %q in %+v", n, s)
				}
			}
		}
		for _, m := range got.Methods {
			if !token.IsExported(m.Name) || m.Recv == "" {
				t.Fatalf("method %+v", m)
			}
		}
	})
}
