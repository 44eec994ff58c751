package pyscan

import (
	"path"
	"strings"
)

// PythonModule returns the dotted module name of the Python file at p
// (repo-relative, "/"-separated) and the package its relative imports
// resolve against: the chain of package directories above it (each
// holding an __init__.py, as isPackage says) from the top-most one, then the
// file's stem. A file outside any package is a top-level module of its own
// name, with package "".
func PythonModule(p string, isPackage func(dir string) bool) (module, pkg string) {
	var parts []string
	for dir := path.Dir(p); dir != "." && isPackage(dir); dir = path.Dir(dir) {
		parts = append(parts, path.Base(dir))
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	pkg = strings.Join(parts, ".")
	stem := strings.TrimSuffix(path.Base(p), ".py")
	switch {
	case stem == "__init__":
		return pkg, pkg
	case pkg == "":
		return stem, ""
	}
	return pkg + "." + stem, pkg
}

// ResolveRelative resolves a relative import of level leading dots naming
// module (as written after the dots, "" for none) from a file of package
// pkg, as CPython's importlib does: one dot is pkg itself, each further dot
// its parent. ok is false when the import climbs above the top-most package
// (CPython's "attempted relative import beyond top-level package") or the
// file is in no package; level 0 is an absolute import and returns module.
func ResolveRelative(pkg string, level int, module string) (string, bool) {
	if level <= 0 {
		return module, module != ""
	}
	if pkg == "" {
		return "", false
	}
	parts := strings.Split(pkg, ".")
	if level-1 >= len(parts) {
		return "", false
	}
	base := strings.Join(parts[:len(parts)-(level-1)], ".")
	if module == "" {
		return base, true
	}
	return base + "." + module, true
}
