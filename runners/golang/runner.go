// Package golang is the runner for the "go" namespace: the struct types and
// exported methods of every Go file in the repository, as the standard
// library's go/parser reads them. Most files are read by a recognizer of
// Go's syntax that builds no tree (fastScan), which hands go/parser every
// file it is not sure of, a syntax error above all, so "parsed" is always
// go/parser's verdict. The go tool is never run and nothing is
// built or type-checked, so the facts are what the source says: an embedded
// pkg.T is reported as "pkg.T" next to the file's imports, and which
// package pkg is, is for the policy to work out.
package golang

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"reflect"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = "go"

// Version is the version of the facts the runner derives from a file's
// bytes: cached facts of another version are read again. Bump it whenever
// Scan's output for some file could change; TestVersionGuardsCachedFacts
// fails when Scan's facts change over its corpus and Version did not.
const Version = "3"

// Runner gathers the "go" namespace: every .go file of the repository
// (Scope.RepoFiles), whatever files the request names, since a struct's
// methods may live in other files of its package and embedded structs in
// other packages. It is safe for concurrent use.
type Runner struct {
	src runners.Sources[facts.GoFile]
}

// New returns the go runner; runners.WithCache keeps its facts in a store.
func New(opts ...runners.SourceOption) *Runner {
	src := sources()
	for _, o := range opts {
		o(&src.CacheConfig)
	}
	return &Runner{src: src}
}

// Namespace implements runners.Runner.
func (r *Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner. A .go file that exists but cannot be
// read, or a go.mod that cannot be read or parsed, makes the namespace an
// error rather than leaving facts out.
func (r *Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	ns, save := r.GatherDeferred(ctx, s)
	save()
	return ns
}

// GatherDeferred is Gather, except that the fact cache is written by save
// (never nil), which the caller must call once before the store closes
// (runners.Sources.GatherDeferred).
func (r *Runner) GatherDeferred(ctx context.Context, s *runners.Scope) (ns facts.Namespace, save func()) {
	files, save, err := r.src.GatherDeferred(ctx, s)
	if err == nil {
		var all []string
		if all, err = s.RepoFiles(ctx); err == nil {
			err = setImportPaths(ctx, s.Root, all, files)
		}
	}
	if err != nil {
		return facts.Error(err.Error()), save
	}
	return facts.OK(facts.Go{Files: files}), save
}

// ScanFiles reads and parses the repo-relative, "/"-separated paths under
// root on GOMAXPROCS goroutines and returns their facts sorted by path, as
// runners.Sources.Scan does: paths that do not exist, symlinks and anything
// but regular files are left out; any other failure to read a file is an
// error, as is a cancelled ctx. ImportPath is left "": it depends on the
// repository's go.mod files, which Gather reads.
func ScanFiles(ctx context.Context, root string, paths []string) ([]facts.GoFile, error) {
	return sources().Scan(ctx, root, paths, nil)
}

// sources is how the runner reads .go files. Open reads openFile at each
// call, so a test that replaces it counts the reads of runners built before.
func sources() runners.Sources[facts.GoFile] {
	return runners.Sources[facts.GoFile]{
		Namespace: Namespace, Version: Version, Ext: ".go", Open: func(name string) (io.ReadCloser, error) { return openFile(name) },
		Scanner: func() func(string, []byte) facts.GoFile { return Scan },
		Encode:  encodeFacts, Decode: decodeFacts,
	}
}

// encodeFacts is a file's cache payload: its facts as JSON, kept only when
// they read back exactly (a name that is not UTF-8 would not).
func encodeFacts(f facts.GoFile) (string, bool) {
	b, err := json.Marshal(f)
	if err != nil {
		return "", false
	}
	back, ok := decodeFacts(f.Path, -1, string(b))
	return string(b), ok && reflect.DeepEqual(back, f)
}

// decodeFacts reads a payload back strictly: unknown fields, another path, a
// line past the last a file of size bytes can have (size < 0: unknown), or
// facts Scan never gives make it a miss.
func decodeFacts(path string, size int64, payload string) (facts.GoFile, bool) {
	f, ok := quickDecode(payload)
	if !ok {
		f = facts.GoFile{}
		dec := json.NewDecoder(bytes.NewReader([]byte(payload)))
		dec.DisallowUnknownFields()
		if dec.Decode(&f) != nil || dec.More() {
			return facts.GoFile{}, false
		}
	}
	if f.Path != path || f.Parsed == (f.Error != nil) || f.ImportPath != "" ||
		f.Imports == nil || f.Structs == nil || f.Methods == nil {
		return facts.GoFile{}, false
	}
	for name, p := range f.Imports {
		if name == "" || p == "" {
			return facts.GoFile{}, false
		}
	}
	line := func(n int) bool { return n >= 1 && (size < 0 || int64(n) <= size+1) }
	if f.Error != nil && !line(f.Error.Line) {
		return facts.GoFile{}, false
	}
	for _, st := range f.Structs {
		if !line(st.Line) || st.Name == "" || st.Fields == nil || st.Bases == nil {
			return facts.GoFile{}, false
		}
	}
	for _, m := range f.Methods {
		if !line(m.Line) || m.Name == "" || m.Recv == "" {
			return facts.GoFile{}, false
		}
	}
	return f, true
}

// openFile opens a file for reading; tests replace it to simulate I/O errors.
var openFile runners.OpenFunc = func(name string) (io.ReadCloser, error) { return os.Open(name) }
