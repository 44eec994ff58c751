package golang

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"slices"

	"github.com/tausik/tausik/facts"
)

// Scan returns the facts of one Go file from its bytes. A file go/parser
// rejects comes back with Parsed false, the first error's line and message,
// and no structs or methods. path is only copied into the result (and into
// go/parser's positions). src is not retained.
func Scan(path string, src []byte) facts.GoFile {
	f := facts.GoFile{Path: path, Structs: []facts.GoStruct{}, Methods: []facts.GoMethod{}}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if file != nil && file.Name != nil {
		f.Package = file.Name.Name
	}
	if err != nil {
		f.Error = parseError(err)
		return f
	}
	f.Parsed = true
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, spec := range d.Specs {
				ts := spec.(*ast.TypeSpec)
				if st, ok := ts.Type.(*ast.StructType); ok && !ts.Assign.IsValid() {
					f.Structs = append(f.Structs, structOf(fset, ts.Name, st))
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 || !d.Name.IsExported() {
				continue
			}
			if recv := typeName(d.Recv.List[0].Type); recv != "" {
				f.Methods = append(f.Methods, facts.GoMethod{Recv: recv, Name: d.Name.Name, Line: fset.Position(d.Name.Pos()).Line})
			}
		}
	}
	return f
}

// structOf reads one struct type's exported fields and embedded types.
func structOf(fset *token.FileSet, name *ast.Ident, st *ast.StructType) facts.GoStruct {
	s := facts.GoStruct{Name: name.Name, Line: fset.Position(name.Pos()).Line, Fields: []string{}, Bases: []string{}}
	for _, field := range st.Fields.List {
		if len(field.Names) == 0 {
			base := typeName(field.Type)
			if base == "" {
				continue
			}
			s.Bases = append(s.Bases, base)
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

// typeName reduces a receiver or embedded field type to its type's name:
// T, *T, pkg.T, *pkg.T, T[X], T[K, V] and parenthesised forms are all T.
// Anything else (no type name at all) is "".
func typeName(x ast.Expr) string {
	for {
		switch t := x.(type) {
		case *ast.Ident:
			return t.Name
		case *ast.SelectorExpr:
			return t.Sel.Name
		case *ast.StarExpr:
			x = t.X
		case *ast.ParenExpr:
			x = t.X
		case *ast.IndexExpr:
			x = t.X
		case *ast.IndexListExpr:
			x = t.X
		default:
			return ""
		}
	}
}

// parseError turns go/parser's error into the file's fact: the first error
// by position (go/parser sorts them), else the error's text on line 1.
func parseError(err error) *facts.GoError {
	var list scanner.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return &facts.GoError{Line: max(list[0].Pos.Line, 1), Msg: list[0].Msg}
	}
	return &facts.GoError{Line: 1, Msg: err.Error()}
}
