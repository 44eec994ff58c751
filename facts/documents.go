package facts

// Documents is the "documents" namespace that the documents runner fills:
// the structured files (JSON, JSONC, YAML, TOML, INI, .env) in the
// request's scope that match the globs the selected gates declare
// (gate.yaml `documents:`), parsed, sorted by path. A gate sees only the
// files its own globs match.
type Documents struct {
	Files []DocumentFile `json:"files"`
}

// Document formats (DocumentFile.Format), chosen by the file's name.
const (
	FormatJSON  = "json"  // .json
	FormatJSONC = "jsonc" // .jsonc, .json5-free JSON with comments and trailing commas (tsconfig, devcontainer)
	FormatYAML  = "yaml"  // .yaml, .yml
	FormatTOML  = "toml"  // .toml
	FormatINI   = "ini"   // .ini, .cfg, .conf, .editorconfig
	FormatEnv   = "env"   // .env, .env.*, *.env
)

// DocumentFile is one structured file. When Parsed is false Docs is empty
// and Error says why, with the 1-based line where the parser stopped (0 when
// the file could not be read as text at all: missing, binary, too large).
//
// Docs holds one value per document: one for every format but YAML, which
// has one per "---"-separated document (an empty file has none). Values keep
// their types: integers are integers, floats floats (a non-finite float is
// the string "+Inf", "-Inf" or "NaN"), dates and times of TOML and YAML their
// text as written. INI files are {section: {key: value}} with the keys
// before any section under "DEFAULT"; INI and .env values are strings.
type DocumentFile struct {
	Path   string         `json:"path"` // repo-relative, "/"-separated
	Format string         `json:"format"`
	Parsed bool           `json:"parsed"`
	Error  *DocumentError `json:"error"` // null when Parsed
	Docs   []any          `json:"docs"`
}

// DocumentError locates why a file does not parse.
type DocumentError struct {
	Line int    `json:"line"`
	Msg  string `json:"msg"`
}

// Plain implements Plainer. Docs are plain values already; a JSON round
// trip would turn a float such as 1.0 into the integer 1.
func (d Documents) Plain() map[string]any {
	files := make([]any, len(d.Files))
	for i, f := range d.Files {
		var perr any
		if f.Error != nil {
			perr = map[string]any{"line": int64(f.Error.Line), "msg": jsonText(f.Error.Msg)}
		}
		docs := make([]any, len(f.Docs))
		copy(docs, f.Docs)
		files[i] = map[string]any{"path": jsonText(f.Path), "format": f.Format, "parsed": f.Parsed, "error": perr, "docs": docs}
	}
	return map[string]any{"files": files}
}

// FilterPaths implements PathFilter; documents have no size cap of a gate's
// own.
func (d Documents) FilterPaths(keep func(path string) bool, _ int64) any {
	out := Documents{Files: make([]DocumentFile, 0, len(d.Files))}
	for _, f := range d.Files {
		if keep(f.Path) {
			out.Files = append(out.Files, f)
		}
	}
	return out
}
