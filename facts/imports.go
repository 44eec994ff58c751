package facts

// Imports is the "imports" namespace that the imports runner fills: the
// import statements of every Python and Go file of the repository
// (repo-wide, whatever files the request names, since a module's name and
// whether "x.y" is a module depend on the whole tree), sorted by path.
type Imports struct {
	Files []ImportFile `json:"files"`
}

// ImportFile is one source file's imports. When Parsed is false the file
// does not parse: Error says where and Imports is empty, never partial.
//
// For Python, Module is the file's dotted module name: its directory chain
// of packages (directories holding __init__.py) from the top-most one, then
// the file's stem ("pkg.sub.mod"; "pkg.sub" for pkg/sub/__init__.py; "tool"
// for a tool.py outside any package). Package is the package relative
// imports resolve against ("pkg.sub"; "" outside a package).
//
// For Go, Module is the module path of the nearest go.mod above the file
// ("" when there is none), Package the import path of the file's directory
// (the module path, then the directory below go.mod), Name the name in its
// package clause.
type ImportFile struct {
	Path     string       `json:"path"` // repo-relative, "/"-separated
	Language string       `json:"language"`
	Module   string       `json:"module"`
	Package  string       `json:"package"`
	Name     string       `json:"name"`
	Parsed   bool         `json:"parsed"`
	Error    *ImportError `json:"error"` // null when Parsed
	Imports  []Import     `json:"imports"`
}

// ImportError locates why a file does not parse.
type ImportError struct {
	Line int    `json:"line"`
	Msg  string `json:"msg"`
}

// Import is one imported module, in source order; one statement may give
// several ("import a, b").
//
// Python: Module is absolute: "a.b" for "import a.b"; for "from a import b",
// "a.b" when a.b is a module or package of the repository, else "a"; a
// relative import resolved against the file's package (".m" in package
// "pkg" is "pkg.m"; "from . import m" is "pkg.m" when that is a module, else
// "pkg"). Raw is the module as written (".m", "a"). Names are the names a
// "from" statement imports ("*" for a star import), [] for "import". A
// relative import that climbs above the top-most package has Module "".
//
// Go: Module is the import path; Raw the path as written (the same); Names
// holds the explicit name when there is one ("_", ".", an alias).
type Import struct {
	Module   string   `json:"module"`
	Raw      string   `json:"raw"`
	Line     int      `json:"line"`
	Relative bool     `json:"relative"`
	Names    []string `json:"names"`
}
