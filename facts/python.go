package facts

// Python is the "python" namespace that the python runner fills: every .py
// file of the repository (repo-wide, whatever files the request names), sorted
// by path. The source is read, never imported or run.
type Python struct {
	Files []PythonFile `json:"files"`
}

// PythonFile is one Python source file. When Parsed is false the file is not
// valid Python (CPython's ast.parse would reject it): Error says where and
// Classes is empty, never a partial list.
type PythonFile struct {
	Path    string        `json:"path"` // repo-relative, "/"-separated
	Parsed  bool          `json:"parsed"`
	Error   *PythonError  `json:"error"`   // null when Parsed
	Classes []PythonClass `json:"classes"` // in source order; [] when none
}

// PythonError locates why a file does not parse. Line is 1-based and is the
// line CPython reports (for errors CPython gives no line, such as a NUL byte
// or an unknown coding cookie, the line of the byte or the cookie); Msg
// follows CPython's wording where the scanner knows it.
type PythonError struct {
	Line int    `json:"line"`
	Msg  string `json:"msg"`
}

// PythonClass is one class statement, wherever it stands (module level,
// nested in a class, inside a function or a block), as ast.walk finds
// ClassDef nodes.
type PythonClass struct {
	// Name is the class name, NFKC-normalised like every Python identifier.
	Name string `json:"name"`
	// Line is the line of the class keyword (ClassDef.lineno), not of a decorator.
	Line int `json:"line"`
	// Bases holds, in order, the last identifier of each base written as a
	// dotted name (X, mod.X, a.b.X); any other base expression (a call, a
	// subscript such as Generic[T], a starred expression) is left out, and so
	// are keywords such as metaclass=.
	Bases []string `json:"bases"`
	// Public is the class's own public names, sorted and deduplicated: names
	// bound directly in the class body (not inside if/try/for/with blocks) by
	// def, async def, assignment to a bare name (each name target of a = b = 1;
	// not tuple targets) or annotated assignment to a bare name, not starting
	// with "_". A nested class is a class of its own, not a public name; a
	// "type X = ..." alias is not an assignment.
	Public []string `json:"public"`
}

// Plain implements Plainer: a project's python namespace holds every class
// of every file and is converted on each evaluation that reads it. It yields
// what a JSON round trip would: nil slices and a nil Error as null, integers
// as int64, strings coerced to UTF-8.
func (p Python) Plain() map[string]any {
	if p.Files == nil {
		return map[string]any{"files": nil}
	}
	files := make([]any, len(p.Files))
	for i, f := range p.Files {
		var perr any
		if f.Error != nil {
			perr = map[string]any{"line": int64(f.Error.Line), "msg": jsonText(f.Error.Msg)}
		}
		var classes any
		if f.Classes != nil {
			list := make([]any, len(f.Classes))
			for j, c := range f.Classes {
				list[j] = map[string]any{"name": jsonText(c.Name), "line": int64(c.Line), "bases": plainStrings(c.Bases), "public": plainStrings(c.Public)}
			}
			classes = list
		}
		files[i] = map[string]any{"path": jsonText(f.Path), "parsed": f.Parsed, "error": perr, "classes": classes}
	}
	return map[string]any{"files": files}
}
