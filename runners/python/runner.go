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
package python

import (
	"context"
	"io"
	"os"
	"strings"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = "python"

// Runner gathers the "python" namespace.
type Runner struct{}

// New returns the python runner.
func New() *Runner { return &Runner{} }

// Namespace implements runners.Runner.
func (*Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner. It looks at every .py file of the
// repository (Scope.RepoFiles), whatever files the request names: class
// surfaces compose across files. A file that exists but cannot be read makes
// the namespace an error rather than leaving the file out.
func (*Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	all, err := s.RepoFiles(ctx)
	if err != nil {
		return facts.Error(err.Error())
	}
	var paths []string
	for _, p := range all {
		if strings.HasSuffix(p, ".py") {
			paths = append(paths, p)
		}
	}
	files, err := ScanFiles(ctx, s.Root, paths)
	if err != nil {
		return facts.Error(err.Error())
	}
	return facts.OK(facts.Python{Files: files})
}

// ScanFiles reads and scans the repo-relative, "/"-separated paths under
// root on GOMAXPROCS goroutines and returns their facts sorted by path, as
// runners.ScanSources does: paths that do not exist, symlinks and anything
// but regular files are left out; any other failure to read a file is an
// error, as is a cancelled ctx.
func ScanFiles(ctx context.Context, root string, paths []string) ([]facts.PythonFile, error) {
	return runners.ScanSources(ctx, root, paths, openFile, func() func(string, []byte) facts.PythonFile {
		return NewScanner().Scan
	})
}

// openFile opens a file for reading; tests replace it to simulate I/O errors.
var openFile runners.OpenFunc = func(name string) (io.ReadCloser, error) { return os.Open(name) }
