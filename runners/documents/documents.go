// Package documents is the runner for the "documents" namespace: the
// structured files in scope that the gates being evaluated name by glob
// (gate.yaml `documents:`), parsed by format — JSON, JSONC, YAML (every
// document of a stream), TOML, INI and .env — with well-kept parsers, so
// that a policy can judge a workflow, a manifest or a config file the way
// conftest users are used to. Each file is kept in the fact cache by its
// lstat stamp and content hash, as the other file facts are.
package documents

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = "documents"

// Version is the version of the cached per-file facts.
const Version = "1"

// DefaultMaxBytes is the size cap when no gate asks for another: a larger
// file is not parsed.
const DefaultMaxBytes = 8 << 20

// Runner gathers the "documents" namespace. It is safe for concurrent use.
type Runner struct {
	src runners.Sources[facts.DocumentFile]
}

// New returns the documents runner; runners.WithCache keeps what it parsed
// in a store.
func New(opts ...runners.SourceOption) *Runner {
	r := &Runner{src: runners.Sources[facts.DocumentFile]{
		Namespace: Namespace, Version: Version,
		Open:    func(name string) (io.ReadCloser, error) { return openFile(name) },
		Scanner: func() func(string, []byte) facts.DocumentFile { return Scan },
		Encode:  encode, Decode: decode,
	}}
	for _, o := range opts {
		o(&r.src.CacheConfig)
	}
	return r
}

// Namespace implements runners.Runner.
func (*Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner: every file in scope that a glob of
// s.Globs["documents"] matches, in path order. A file that does not parse
// is a fact (Parsed false, with the line), not an error of the namespace; a
// file in scope that is not a regular file is listed unparsed with the
// reason; one that exists but cannot be read makes the namespace an error.
func (r *Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	data, err := r.gather(ctx, s)
	if err != nil {
		return facts.Error(err.Error())
	}
	return facts.OK(data)
}

func (r *Runner) gather(ctx context.Context, s *runners.Scope) (facts.Documents, error) {
	out := facts.Documents{Files: []facts.DocumentFile{}}
	limit := s.MaxBytes[Namespace]
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	paths, err := s.GlobbedFiles(ctx, Namespace)
	if err != nil || len(paths) == 0 {
		return out, err
	}
	var read []string
	pre := map[string]facts.DocumentFile{}
	for _, p := range paths {
		info, err := os.Lstat(filepath.Join(s.Root, filepath.FromSlash(p)))
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || err == nil && !info.Mode().IsRegular():
			pre[p] = unparsed(p, "not a regular file (missing, a directory or a symlink)")
		case err != nil:
			return out, err
		case info.Size() > limit:
			pre[p] = unparsed(p, "file too large to parse ("+strconv.FormatInt(info.Size(), 10)+" bytes, max "+strconv.FormatInt(limit, 10)+")")
		default:
			read = append(read, p)
		}
	}
	ix := runners.LoadCacheIndex(ctx, r.src.CacheConfig, Namespace, Version, s.Root)
	files, err := r.src.Scan(ctx, s.Root, read, ix)
	if err != nil {
		return out, err
	}
	if ix != nil {
		_ = ix.Save(ctx) // the facts stand either way
	}
	got := map[string]bool{}
	for _, f := range files {
		got[f.Path] = true
	}
	out.Files = files
	for _, p := range paths {
		switch f, ok := pre[p]; {
		case ok:
			out.Files = append(out.Files, f)
		case !got[p]: // gone between the lstat and the read
			out.Files = append(out.Files, unparsed(p, "not a regular file (missing, a directory or a symlink)"))
		}
	}
	sort.Slice(out.Files, func(i, j int) bool { return out.Files[i].Path < out.Files[j].Path })
	return out, nil
}

// unparsed is a file that could not be read as a document, for why.
func unparsed(p, why string) facts.DocumentFile {
	return facts.DocumentFile{Path: p, Format: FormatOf(p), Error: &facts.DocumentError{Msg: why}, Docs: []any{}}
}

// Scan returns the facts of one file from its bytes.
func Scan(p string, src []byte) facts.DocumentFile {
	f := facts.DocumentFile{Path: p, Format: FormatOf(p), Docs: []any{}}
	if runners.IsBinary(src[:min(len(src), 8<<10)], len(src) > 8<<10) {
		f.Error = &facts.DocumentError{Msg: "binary file"}
		return f
	}
	docs, perr := Parse(f.Format, bytes.TrimPrefix(src, []byte("\uFEFF")))
	if perr != nil {
		f.Error = perr
		return f
	}
	f.Parsed, f.Docs = true, docs
	return f
}

// payload is a file's cache entry: its facts with every float written with
// a "." or an exponent, so that it reads back as a float.
type payload struct {
	Path   string               `json:"path"`
	Format string               `json:"format"`
	Error  *facts.DocumentError `json:"error"`
	Docs   json.RawMessage      `json:"docs"`
}

// encode is a file's cache payload; ok false when its values cannot be
// written back exactly (a string that is not UTF-8).
func encode(f facts.DocumentFile) (string, bool) {
	docs, ok := facts.AppendTyped(nil, f.Docs)
	if !ok {
		return "", false
	}
	b, err := json.Marshal(payload{Path: f.Path, Format: f.Format, Error: f.Error, Docs: docs})
	return string(b), err == nil
}

// decode reads a payload back for the file at p, strictly.
func decode(p string, _ int64, s string) (facts.DocumentFile, bool) {
	var pl payload
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.DisallowUnknownFields()
	if dec.Decode(&pl) != nil || dec.More() || pl.Path != p || pl.Format != FormatOf(p) {
		return facts.DocumentFile{}, false
	}
	dd := json.NewDecoder(bytes.NewReader(pl.Docs))
	dd.UseNumber()
	var docs []any
	if dd.Decode(&docs) != nil || docs == nil {
		return facts.DocumentFile{}, false
	}
	for i := range docs {
		docs[i] = plainJSON(docs[i])
	}
	if pl.Error != nil && len(docs) > 0 {
		return facts.DocumentFile{}, false
	}
	return facts.DocumentFile{Path: p, Format: pl.Format, Parsed: pl.Error == nil, Error: pl.Error, Docs: docs}, true
}

// openFile opens a file for reading; tests replace it to simulate I/O errors.
var openFile runners.OpenFunc = func(name string) (io.ReadCloser, error) { return os.Open(name) }
