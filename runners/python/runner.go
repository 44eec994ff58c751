// Package python is the runner for the "python" namespace: the classes of
// every Python file in the repository, read with a pure-Go tokenizer and
// statement scanner that follows CPython's, never importing or running the
// code.
//
// For every file CPython's ast.parse accepts, the facts equal what a script
// walking its ast reports (testdata/python/classfacts.py is that script and
// the tests compare the two over a whole Python installation). A file
// CPython rejects in its tokenizer (bad encoding, invalid character,
// unterminated string, unbalanced brackets, inconsistent indentation) is
// reported unparseable with the line; so are files breaking the statement
// structure or holding token sequences no grammar accepts (Python 2's print
// "x"). Deeper grammar errors inside expressions (x = = 1) go unnoticed.
// Syntax up to Python 3.14 is understood: PEP 695 type parameters and type
// aliases, PEP 701 f-strings, PEP 750 t-strings, match statements.
//
// With a store (WithCache), a file whose lstat stamp is what it was when the
// runner last read it is not opened again: its facts come from the cache
// (see runners/cache), kept under Version.
package python

import (
	"context"
	"io"
	"os"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/cache"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = "python"

// Runner gathers the "python" namespace. It is safe for concurrent use.
type Runner struct {
	st  cache.Store
	now func() time.Time
}

// Option tunes a Runner at construction.
type Option func(*Runner)

// WithCache keeps the facts of every file in st between evaluations (nil: no
// cache).
func WithCache(st cache.Store) Option { return func(r *Runner) { r.st = st } }

// WithClock sets the clock that dates cache entries, so that tests can place
// a read inside or outside a file's racy window without sleeping.
func WithClock(now func() time.Time) Option { return func(r *Runner) { r.now = now } }

// New returns the python runner.
func New(opts ...Option) *Runner {
	r := &Runner{now: time.Now}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Namespace implements runners.Runner.
func (*Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner. It looks at every .py file of the
// repository (Scope.RepoFiles), whatever files the request names: class
// surfaces compose across files. A file that exists but cannot be read makes
// the namespace an error rather than leaving the file out.
func (r *Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	files, err := sources(r.st, r.now).Gather(ctx, s)
	if err != nil {
		return facts.Error(err.Error())
	}
	return facts.OK(facts.Python{Files: files})
}

// ScanFiles reads and scans the repo-relative, "/"-separated paths under
// root on GOMAXPROCS goroutines and returns their facts sorted by path, as
// runners.Sources.Scan does: paths that do not exist, symlinks and anything
// but regular files are left out; any other failure to read a file is an
// error, as is a cancelled ctx.
func ScanFiles(ctx context.Context, root string, paths []string) ([]facts.PythonFile, error) {
	return sources(nil, time.Now).Scan(ctx, root, paths, nil)
}

// sources is how the runner reads .py files, with st's cache when not nil.
func sources(st cache.Store, now func() time.Time) runners.Sources[facts.PythonFile] {
	return runners.Sources[facts.PythonFile]{
		Namespace: Namespace, Version: Version, Ext: ".py", Store: st, Now: now, Open: openFile,
		Scanner: func() func(string, []byte) facts.PythonFile { return NewScanner().Scan },
		Encode:  encodeFacts, Decode: decodeFacts,
	}
}

// openFile opens a file for reading; tests replace it to simulate I/O errors
// and to count the files read.
var openFile runners.OpenFunc = func(name string) (io.ReadCloser, error) { return os.Open(name) }
