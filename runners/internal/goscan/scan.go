package goscan

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"slices"
	"strconv"

	"github.com/tausik/tausik/runners/internal/goscan/internal/fastscan"

	"github.com/tausik/tausik/facts"
)

// parseScan is Scan with go/parser: the reference fastscan.Scan is held to,
// and what reads every file fastscan.Scan gives up on.
func parseScan(path string, src []byte) facts.GoFile {
	f := facts.GoFile{Path: path, Imports: map[string]string{}, Structs: []facts.GoStruct{}, Methods: []facts.GoMethod{}}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if file != nil && file.Name != nil {
		f.Package = file.Name.Name
	}
	if err != nil {
		f.Error = parseError(fset, err)
		return f
	}
	f.Parsed = true
	line := func(p token.Pos) int { return fset.PositionFor(p, false).Line }
	for _, imp := range file.Imports {
		if name, p, ok := importOf(imp); ok {
			if _, dup := f.Imports[name]; !dup {
				f.Imports[name] = p
			}
		}
	}
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, spec := range d.Specs {
				ts := spec.(*ast.TypeSpec)
				if st, ok := ts.Type.(*ast.StructType); ok && !ts.Assign.IsValid() {
					f.Structs = append(f.Structs, structOf(line, ts.Name, st))
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 || !d.Name.IsExported() {
				continue
			}
			if _, recv := typeName(d.Recv.List[0].Type); recv != "" {
				f.Methods = append(f.Methods, facts.GoMethod{Recv: recv, Name: d.Name.Name, Line: line(d.Name.Pos())})
			}
		}
	}
	return f
}

// importOf is the name an import spec binds and its path: the explicit name,
// else the path's last element (the usual package name; a package whose
// name differs is not found under it, which only leaves its types
// unresolved). Blank and dot imports bind no name: ok is false.
func importOf(imp *ast.ImportSpec) (name, p string, ok bool) {
	p, err := strconv.Unquote(imp.Path.Value)
	if err != nil || p == "" {
		return "", "", false
	}
	name = path.Base(p)
	if imp.Name != nil {
		name = imp.Name.Name
	}
	if name == "_" || name == "." || !token.IsIdentifier(name) {
		return "", "", false
	}
	return name, p, true
}

// structOf reads one struct type's exported fields and embedded types.
func structOf(line func(token.Pos) int, name *ast.Ident, st *ast.StructType) facts.GoStruct {
	s := facts.GoStruct{Name: name.Name, Line: line(name.Pos()), Fields: []string{}, Bases: []string{}}
	for _, field := range st.Fields.List {
		if len(field.Names) == 0 {
			q, base := typeName(field.Type)
			if base == "" {
				continue
			}
			if q != "" {
				s.Bases = append(s.Bases, q+"."+base)
			} else {
				s.Bases = append(s.Bases, base)
			}
			if token.IsExported(base) {
				s.Fields = append(s.Fields, base)
			}
			continue
		}
		for _, n := range field.Names {
			if n.IsExported() {
				s.Fields = append(s.Fields, n.Name)
			}
		}
	}
	slices.Sort(s.Fields)
	s.Fields = slices.Compact(s.Fields)
	return s
}

// typeName reduces a receiver or embedded field type to its package
// qualifier and type name: T, *T, T[X], T[K, V] and parenthesised forms are
// ("", T); pkg.T and *pkg.T[X] are (pkg, T). Anything else (no type name at
// all) is ("", "").
func typeName(x ast.Expr) (qual, name string) {
	for {
		switch t := x.(type) {
		case *ast.Ident:
			return "", t.Name
		case *ast.SelectorExpr:
			if q, ok := t.X.(*ast.Ident); ok {
				return q.Name, t.Sel.Name
			}
			return "", ""
		case *ast.StarExpr:
			x = t.X
		case *ast.ParenExpr:
			x = t.X
		case *ast.IndexExpr:
			x = t.X
		case *ast.IndexListExpr:
			x = t.X
		default:
			return "", ""
		}
	}
}

// parseError turns go/parser's error into the file's fact: the first error
// by position (go/parser sorts them), else the error's text on line 1. The
// line is the one at the error's byte offset in fset's only file, not the
// error position's, which a //line directive may have moved.
func parseError(fset *token.FileSet, err error) *facts.GoError {
	var list scanner.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return &facts.GoError{Line: 1, Msg: err.Error()}
	}
	var file *token.File
	fset.Iterate(func(f *token.File) bool { file = f; return false })
	line := 1
	if off := list[0].Pos.Offset; file != nil && off >= 0 && off <= file.Size() {
		line = max(fset.PositionFor(file.Pos(off), false).Line, 1)
	}
	return &facts.GoError{Line: line, Msg: list[0].Msg}
}

// Scan returns the facts of one Go file from its bytes, as go/parser sees
// it. A file go/parser rejects comes back with Parsed false, the first
// error's line and message, and no imports, structs or methods. path is
// only copied into the result (and into go/parser's positions). src is not
// retained. Lines are the file's own: a //line directive does not move
// them. Most files are read by fastscan.Scan, which builds no syntax tree; what
// it is not sure of, a syntax error above all, goes to go/parser.
func Scan(path string, src []byte) facts.GoFile {
	if f, ok := fastscan.Scan(path, src); ok {
		return f
	}
	return parseScan(path, src)
}
