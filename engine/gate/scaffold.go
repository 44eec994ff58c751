package gate

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"text/template"

	"github.com/tausik/tausik/engine/diag"
)

//go:embed all:scaffold
var scaffoldFS embed.FS

// What `policy new --from` scaffolds: an example gate over one facts
// namespace.
const (
	KindFiles     = "files"     // file sizes, in rego or cel
	KindContent   = "content"   // the lines of files named by glob, in cel
	KindDocuments = "documents" // parsed YAML/JSON/TOML files named by glob, in rego
	KindImports   = "imports"   // the resolved imports of Python and Go files, in rego
	KindTool      = "tool"      // the agent tool call a hook judges, in rego
)

// ScaffoldKinds are the kinds Scaffold knows, each with the languages its
// example is written in.
var ScaffoldKinds = map[string][]string{
	KindFiles: {LangRego, LangCEL}, KindContent: {LangCEL}, KindDocuments: {LangRego}, KindImports: {LangRego}, KindTool: {LangRego},
}

// Scaffold writes a new team gate bundle NAME in the project's tausik/policies
// directory, in lang ("rego" or "cel"), with a violating and a clean fixture
// that pass `policy test` as written. It returns the files written, relative
// to root. It refuses a bad name (ErrUsage), and a gate or directory that
// already exists (ErrExists), and writes nothing then.
func Scaffold(root, name, lang string, builtin fs.FS) ([]string, error) {
	return ScaffoldFrom(root, name, KindFiles, lang, builtin)
}

// ScaffoldFrom is Scaffold for an example gate of the given kind (one of
// ScaffoldKinds): a working gate over that namespace, with FAILED and PASSED
// fixtures that pass `policy test` and pin every mutant of its policy. lang
// "" takes the kind's first language; a kind or language it does not have
// is ErrUsage.
func ScaffoldFrom(root, name, kind, lang string, builtin fs.FS) ([]string, error) {
	if !NameRE().MatchString(name) {
		return nil, fmt.Errorf("%w: gate name %q must match %s", diag.ErrUsage, name, NameRE())
	}
	langs, ok := ScaffoldKinds[kind]
	if !ok {
		return nil, fmt.Errorf("%w: --from must be one of %s, got %q", diag.ErrUsage, strings.Join(slices.Sorted(maps.Keys(ScaffoldKinds)), ", "), kind)
	}
	if lang == "" {
		lang = langs[0]
	}
	if lang != LangRego && lang != LangCEL {
		return nil, fmt.Errorf("%w: --lang must be rego or cel, got %q", diag.ErrUsage, lang)
	}
	if !slices.Contains(langs, lang) {
		return nil, fmt.Errorf("%w: the %s example is written in %s, not %s", diag.ErrUsage, kind, strings.Join(langs, " or "), lang)
	}
	tmplDir := kind
	if kind == KindFiles {
		tmplDir = lang
	}
	if _, err := fs.Stat(builtin, name); err == nil {
		return nil, fmt.Errorf("%w: %q is a built-in gate; choose another name", diag.ErrExists, name)
	}
	dir := filepath.Join(root, filepath.FromSlash(TeamDir), name)
	if _, err := os.Lstat(dir); err == nil {
		return nil, fmt.Errorf("%w: %s", diag.ErrExists, filepath.Join(TeamDir, name))
	}
	src, err := fs.Sub(scaffoldFS, "scaffold/"+tmplDir)
	if err != nil {
		return nil, err
	}
	data := struct{ Name string }{name}
	type file struct {
		rel  string
		body []byte
	}
	var files []file
	err = fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		tmpl, err := template.New(p).Delims("[[", "]]").Parse(string(raw))
		if err != nil {
			return fmt.Errorf("template %s: %w", p, err)
		}
		var buf bytes.Buffer
		if err := tmpl.Execute(&buf, data); err != nil {
			return fmt.Errorf("template %s: %w", p, err)
		}
		files = append(files, file{strings.TrimSuffix(p, ".tmpl"), buf.Bytes()})
		return nil
	})
	if err != nil {
		return nil, err
	}
	var written []string
	for _, f := range files {
		target := filepath.Join(dir, filepath.FromSlash(f.rel))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(target, f.body, 0o644); err != nil {
			return nil, err
		}
		written = append(written, path.Join(TeamDir, name, f.rel))
	}
	return written, nil
}
