// Package imports is the runner for the "imports" namespace: the import
// statements of every Python and Go file in the repository, each resolved to
// the absolute module it names, with the file's own module and package, so
// that a policy can judge an import graph (the layers gate).
//
// Python files are read by the shared Python scanner (runners/internal/pyscan),
// which follows CPython's tokenizer and grammar; Go files by the standard
// library's go/parser, imports only. Neither language is built, imported or
// run. What a file says is cached by content like the other source facts
// (runners.Sources); resolution, which depends on the whole tree (which
// directories are packages, where go.mod files are), runs on every
// evaluation and costs little.
package imports

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"io"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/internal/pyscan"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = "imports"

// Version is the version of the per-file facts the runner caches: bump it
// whenever what a file's bytes give could change.
const Version = "1"

// Languages of an ImportFile.
const (
	LangPython = "python"
	LangGo     = "go"
)

// rawFile is what one file's bytes say, before resolution: the part that is
// cached.
type rawFile struct {
	Path  string             `json:"path"`
	Name  string             `json:"name"` // Go: the package clause's name
	Error *facts.ImportError `json:"error"`
	Py    []pyscan.RawImport `json:"py"`
	Go    []goImport         `json:"go"`
}

// goImport is one import spec of a Go file.
type goImport struct {
	Path string `json:"path"`
	Name string `json:"name"` // the explicit name ("_", ".", an alias), else ""
	Line int    `json:"line"`
}

// Runner gathers the "imports" namespace. It is safe for concurrent use.
type Runner struct {
	py, golang runners.Sources[rawFile]
}

// New returns the imports runner; runners.WithCache keeps what each file
// says in a store.
func New(opts ...runners.SourceOption) *Runner {
	r := &Runner{py: sources(LangPython, ".py", scanPython), golang: sources(LangGo, ".go", scanGo)}
	for _, o := range opts {
		o(&r.py.CacheConfig)
		o(&r.golang.CacheConfig)
	}
	return r
}

// Namespace implements runners.Runner.
func (*Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner. A file that exists but cannot be read,
// or a go.mod that does not parse, makes the namespace an error.
func (r *Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	data, err := r.gather(ctx, s)
	if err != nil {
		return facts.Error(err.Error())
	}
	return facts.OK(data)
}

func (r *Runner) gather(ctx context.Context, s *runners.Scope) (facts.Imports, error) {
	all, err := s.RepoFiles(ctx)
	if err != nil {
		return facts.Imports{}, err
	}
	pys, err := r.py.Gather(ctx, s)
	if err != nil {
		return facts.Imports{}, err
	}
	gos, err := r.golang.Gather(ctx, s)
	if err != nil {
		return facts.Imports{}, err
	}
	mods, err := goModules(s.Root, all)
	if err != nil {
		return facts.Imports{}, err
	}
	out := facts.Imports{Files: make([]facts.ImportFile, 0, len(pys)+len(gos))}
	out.Files = append(out.Files, resolvePython(all, pys)...)
	for _, f := range gos {
		out.Files = append(out.Files, resolveGo(f, mods))
	}
	sort.Slice(out.Files, func(i, j int) bool { return out.Files[i].Path < out.Files[j].Path })
	return out, nil
}

// resolvePython gives each Python file its module and package and resolves
// its imports against the repository's modules (every .py file's module,
// packages included).
func resolvePython(all []string, files []rawFile) []facts.ImportFile {
	pkgDirs := map[string]bool{}
	for _, p := range all {
		if path.Base(p) == "__init__.py" {
			pkgDirs[path.Dir(p)] = true
		}
	}
	isPackage := func(dir string) bool { return pkgDirs[dir] }
	known := map[string]bool{}
	for _, p := range all {
		if strings.HasSuffix(p, ".py") {
			m, _ := pyscan.PythonModule(p, isPackage)
			known[m] = true
		}
	}
	out := make([]facts.ImportFile, 0, len(files))
	for _, f := range files {
		mod, pkg := pyscan.PythonModule(f.Path, isPackage)
		fi := facts.ImportFile{Path: f.Path, Language: LangPython, Module: mod, Package: pkg, Error: f.Error, Parsed: f.Error == nil, Imports: []facts.Import{}}
		for _, raw := range f.Py {
			fi.Imports = append(fi.Imports, pythonImports(raw, pkg, known)...)
		}
		out = append(out, fi)
	}
	return out
}

// pythonImports resolves one statement: "from x import y, z" names x.y and
// x.z where those are modules of the repository, and x for the rest.
func pythonImports(raw pyscan.RawImport, pkg string, known map[string]bool) []facts.Import {
	written := strings.Repeat(".", raw.Level) + raw.Module
	base, ok := pyscan.ResolveRelative(pkg, raw.Level, raw.Module)
	if !ok {
		base = ""
	}
	if !raw.From {
		return []facts.Import{{Module: base, Raw: written, Line: raw.Line, Names: []string{}}}
	}
	var out []facts.Import
	rest := []string{}
	for _, n := range raw.Names {
		if sub := base + "." + n; ok && n != "*" && known[sub] {
			out = append(out, facts.Import{Module: sub, Raw: written, Line: raw.Line, Relative: raw.Level > 0, Names: []string{n}})
			continue
		}
		rest = append(rest, n)
	}
	if len(rest) > 0 || len(out) == 0 {
		out = append(out, facts.Import{Module: base, Raw: written, Line: raw.Line, Relative: raw.Level > 0, Names: rest})
	}
	return out
}

// goModules reads every go.mod among the repository's files into a map
// from its directory ("." for the root) to its module path; one that does
// not name its module is an error naming it.
func goModules(root string, all []string) (map[string]string, error) {
	mods := map[string]string{}
	for _, p := range all {
		if path.Base(p) != "go.mod" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
		mp := modfile.ModulePath(b)
		if mp == "" {
			return nil, fmt.Errorf("%s: no module directive", p)
		}
		mods[path.Dir(p)] = mp
	}
	return mods, nil
}

// resolveGo gives a Go file its module (the nearest go.mod above it) and
// the import path of its directory.
func resolveGo(f rawFile, mods map[string]string) facts.ImportFile {
	fi := facts.ImportFile{Path: f.Path, Language: LangGo, Name: f.Name, Error: f.Error, Parsed: f.Error == nil, Imports: []facts.Import{}}
	dir := path.Dir(f.Path)
	for d := dir; ; d = path.Dir(d) {
		if mp, ok := mods[d]; ok {
			fi.Module = mp
			fi.Package = mp
			if d != dir {
				rel := strings.TrimPrefix(dir, d+"/")
				if d == "." {
					rel = dir
				}
				fi.Package = mp + "/" + rel
			}
			break
		}
		if d == "." {
			break
		}
	}
	for _, im := range f.Go {
		names := []string{}
		if im.Name != "" {
			names = []string{im.Name}
		}
		fi.Imports = append(fi.Imports, facts.Import{Module: im.Path, Raw: im.Path, Line: im.Line, Names: names})
	}
	return fi
}

// sources is how the runner reads the files of one language.
func sources(lang, ext string, scan func(path string, src []byte) rawFile) runners.Sources[rawFile] {
	return runners.Sources[rawFile]{
		Namespace: Namespace + "." + lang, Version: Version, Ext: ext,
		Open:    func(name string) (io.ReadCloser, error) { return openFile(name) },
		Scanner: func() func(string, []byte) rawFile { return scan },
		Encode:  encode, Decode: decode,
	}
}

// scanPython reads a Python file's import statements.
func scanPython(p string, src []byte) rawFile {
	imps, perr := pyscan.NewScanner().Imports(src)
	f := rawFile{Path: p, Py: imps}
	if perr != nil {
		f.Error, f.Py = &facts.ImportError{Line: perr.Line, Msg: perr.Msg}, nil
	}
	return f
}

// scanGo reads a Go file's package clause and imports with go/parser.
func scanGo(p string, src []byte) rawFile {
	fset := token.NewFileSet()
	ast, err := parser.ParseFile(fset, p, src, parser.ImportsOnly|parser.SkipObjectResolution)
	f := rawFile{Path: p}
	if err != nil {
		line := 1
		var list scanner.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			line, err = max(list[0].Pos.Line, 1), errors.New(list[0].Msg)
		}
		f.Error = &facts.ImportError{Line: line, Msg: err.Error()}
		return f
	}
	f.Name = ast.Name.Name
	for _, spec := range ast.Imports {
		ip, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			ip = spec.Path.Value
		}
		im := goImport{Path: ip, Line: fset.Position(spec.Pos()).Line}
		if spec.Name != nil {
			im.Name = spec.Name.Name
		}
		f.Go = append(f.Go, im)
	}
	return f
}

// encode is a file's cache payload, kept only when it reads back exactly.
func encode(f rawFile) (string, bool) {
	b, err := json.Marshal(f)
	if err != nil {
		return "", false
	}
	back, ok := decode(f.Path, -1, string(b))
	return string(b), ok && reflect.DeepEqual(back, f)
}

// decode reads a payload back strictly: unknown fields, another path or a
// line past the last a file of size bytes can have are a miss.
func decode(p string, size int64, payload string) (rawFile, bool) {
	var f rawFile
	dec := json.NewDecoder(bytes.NewReader([]byte(payload)))
	dec.DisallowUnknownFields()
	if dec.Decode(&f) != nil || dec.More() || f.Path != p {
		return rawFile{}, false
	}
	line := func(n int) bool { return n >= 1 && (size < 0 || int64(n) <= size+1) }
	if f.Error != nil && !line(f.Error.Line) {
		return rawFile{}, false
	}
	for _, im := range f.Py {
		if !line(im.Line) {
			return rawFile{}, false
		}
	}
	for _, im := range f.Go {
		if !line(im.Line) || im.Path == "" {
			return rawFile{}, false
		}
	}
	return f, true
}

// openFile opens a file for reading; tests replace it to simulate I/O errors.
var openFile runners.OpenFunc = func(name string) (io.ReadCloser, error) { return os.Open(name) }
