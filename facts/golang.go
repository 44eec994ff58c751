package facts

// Go is the "go" namespace that the go runner fills: every .go file of the
// repository (repo-wide, whatever files the request names), sorted by path.
// The facts are go/parser's (the runner reads most files without it, and
// gives the same facts); the source is never built, type-checked or run.
//
// Facts are per file. Methods are not joined to their types here: a method
// may be declared in any file of its type's package, so the policy joins
// them by directory, package and type name.
type Go struct {
	Files []GoFile `json:"files"`
}

// GoFile is one Go source file. When Parsed is false go/parser rejects the
// file: Error says where, and Imports, Structs and Methods are empty, never
// partial. Lines are the file's own, whatever //line directives say.
type GoFile struct {
	Path string `json:"path"` // repo-relative, "/"-separated
	// Package is the name in the package clause; "" when the clause itself
	// does not parse. Files of one directory with different package names
	// (an external foo_test package, a "package main" tool behind a build
	// tag) are different packages.
	Package string `json:"package"`
	// ImportPath is the import path of the file's directory: the module
	// path of the nearest go.mod at or above it in the repository joined
	// with the directory below that go.mod ("" when no go.mod encloses the
	// file). Two exceptions follow the go tool: in the standard library's
	// module ("std") the path is the directory alone (src/net/http is
	// "net/http"), and a directory under a module's vendor/ has the path
	// files import it by, the part after vendor/.
	ImportPath string   `json:"import_path"`
	Parsed     bool     `json:"parsed"`
	Error      *GoError `json:"error"` // null when Parsed
	// Imports maps the name each import binds in this file to its path: the
	// explicit name, else the path's last element when it is an identifier
	// (the package's real name is not read: "gopkg.in/yaml.v3" binds
	// nothing, so yaml.T is left unresolved, a lower bound). The first of
	// two imports binding one name wins. Blank and dot imports bind no name
	// and are left out: an unqualified embedded type is looked up in the
	// file's own package only, so a dot-imported one stays unresolved. {}
	// when none.
	Imports map[string]string `json:"imports"`
	Structs []GoStruct        `json:"structs"` // in source order; [] when none
	Methods []GoMethod        `json:"methods"` // in source order; [] when none
}

// GoError locates why a file does not parse: the first error go/parser
// reports, its 1-based line and its message.
type GoError struct {
	Line int    `json:"line"`
	Msg  string `json:"msg"`
}

// GoStruct is one package-level type defined by a struct type literal
// (type T struct{...}, generic ones included). Aliases (type A = B), types
// defined from another named type (type T U) and types declared inside
// functions are not structs here: the first two have no fields of their own
// to read, and the last cannot have methods.
type GoStruct struct {
	Name string `json:"name"`
	// Line is the line of the type's name.
	Line int `json:"line"`
	// Fields is the exported field names, sorted and deduplicated, an
	// embedded field counting by its type's name (Base for Base, *Base,
	// pkg.Base or Base[T]) when that name is exported.
	Fields []string `json:"fields"`
	// Bases holds, in order, the type of every embedded field, exported or
	// not, as it names it: "T" for T, *T and T[X]; "pkg.T" for pkg.T,
	// *pkg.T and pkg.T[K, V], pkg being the name the file imports the
	// package under (see Imports). Go resolves "T" only in the struct's own
	// package and "pkg.T" only in the imported one.
	Bases []string `json:"bases"`
}

// GoMethod is one exported method, whatever its receiver's type (struct or
// not) and whether the receiver is a pointer or a value.
type GoMethod struct {
	// Recv is the receiver's type name, without * or type parameters.
	Recv string `json:"recv"`
	Name string `json:"name"`
	Line int    `json:"line"`
}
