// Package goscan reads the struct types and exported methods of every Go
// file in a repository, as the standard library's go/parser reads them: the
// "go" namespace's facts, shared by the go runner (runners/golang) and
// class_surface, cached under one namespace and Version. Most files are read
// by a recognizer of Go's syntax that builds no tree (fastscan.Scan), which
// hands go/parser every file it is not sure of, a syntax error above all, so
// "parsed" is always go/parser's verdict. The go tool is never run and
// nothing is built or type-checked, so the facts are what the source says:
// an embedded pkg.T is reported as "pkg.T" next to the file's imports, and
// which package pkg is, is for the policy to work out.
package goscan

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"unicode/utf8"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// Namespace is the key of the facts Runner gathers.
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
	ns, save := r.Start(ctx, s)()
	save()
	return ns
}

// Start begins Gather by loading the fact cache's index and returns the
// rest of it, to be called once; the fact cache is written by the save the
// rest returns (never nil), which the caller must call once before the
// store closes (runners.Sources.Start).
func (r *Runner) Start(ctx context.Context, s *runners.Scope) func() (ns facts.Namespace, save func()) {
	rest := r.src.Start(ctx, s)
	return func() (facts.Namespace, func()) {
		files, save, err := rest()
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
// they read back exactly. They do when every string is valid UTF-8 (for
// other bytes encoding/json writes U+FFFD) and decodeFacts accepts them:
// checking that, instead of decoding the payload and comparing it with
// reflect.DeepEqual, halves the cost of encoding on a cold GOROOT/src scan
// (TestPayloadsOfThisRepository reads every payload back).
func encodeFacts(f facts.GoFile) (string, bool) {
	b, err := json.Marshal(f)
	if err != nil || !validUTF8(f) || !plausible(f, -1) {
		return "", false
	}
	return string(b), true
}

// validUTF8 reports whether every string of f is valid UTF-8.
func validUTF8(f facts.GoFile) bool {
	ok := utf8.ValidString(f.Path) && utf8.ValidString(f.Package) && utf8.ValidString(f.ImportPath) &&
		(f.Error == nil || utf8.ValidString(f.Error.Msg))
	for k, v := range f.Imports {
		ok = ok && utf8.ValidString(k) && utf8.ValidString(v)
	}
	for _, st := range f.Structs {
		ok = ok && utf8.ValidString(st.Name) && allValid(st.Fields) && allValid(st.Bases)
	}
	for _, m := range f.Methods {
		ok = ok && utf8.ValidString(m.Recv) && utf8.ValidString(m.Name)
	}
	return ok
}

func allValid(l []string) bool {
	for _, s := range l {
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}

// decodeFacts reads a payload back strictly: unknown fields, another path, or
// facts that are not plausible make it a miss.
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
	if f.Path != path || !plausible(f, size) {
		return facts.GoFile{}, false
	}
	return f, true
}

// plausible reports whether f could be Scan's facts of a file of size
// bytes (size < 0: unknown): no line past the last such a file can have, no
// facts Scan never gives.
func plausible(f facts.GoFile, size int64) bool {
	if f.Parsed == (f.Error != nil) || f.ImportPath != "" ||
		f.Imports == nil || f.Structs == nil || f.Methods == nil {
		return false
	}
	for name, p := range f.Imports {
		if name == "" || p == "" {
			return false
		}
	}
	line := func(n int) bool { return n >= 1 && (size < 0 || int64(n) <= size+1) }
	if f.Error != nil && !line(f.Error.Line) {
		return false
	}
	for _, st := range f.Structs {
		if !line(st.Line) || st.Name == "" || st.Fields == nil || st.Bases == nil {
			return false
		}
	}
	for _, m := range f.Methods {
		if !line(m.Line) || m.Name == "" || m.Recv == "" {
			return false
		}
	}
	return true
}

// openFile opens a file for reading; tests replace it to simulate I/O errors.
var openFile runners.OpenFunc = func(name string) (io.ReadCloser, error) { return os.Open(name) }
