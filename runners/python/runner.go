// Package python is the runner for the "python" namespace: the classes of
// every Python file in the repository, read with the shared pure-Go scanner
// (runners/internal/pyscan), whose facts equal what CPython's ast reports,
// never importing or running the code.
//
// With a store (runners.WithCache), a file whose lstat stamp is what it was when the
// runner last read it is not opened again: its facts come from the cache
// (see runners/cache), kept under Version.
package python

import (
	"context"
	"io"
	"os"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/internal/pyscan"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = "python"

// Runner gathers the "python" namespace: every .py file of the repository
// (Scope.RepoFiles), whatever files the request names, since class surfaces
// compose across files.
type Runner = runners.SourceRunner[facts.PythonFile]

// New returns the python runner; runners.WithCache keeps its facts in a store.
func New(opts ...runners.SourceOption) *Runner {
	return runners.NewSourceRunner(sources(), func(files []facts.PythonFile) any { return facts.Python{Files: files} }, opts...)
}

// ScanFiles reads and scans the repo-relative, "/"-separated paths under
// root on GOMAXPROCS goroutines and returns their facts sorted by path, as
// runners.Sources.Scan does: paths that do not exist, symlinks and anything
// but regular files are left out; any other failure to read a file is an
// error, as is a cancelled ctx.
func ScanFiles(ctx context.Context, root string, paths []string) ([]facts.PythonFile, error) {
	return sources().Scan(ctx, root, paths, nil)
}

// sources is how the runner reads .py files. Open reads openFile at each
// call, so a test that replaces it counts the reads of runners built before.
func sources() runners.Sources[facts.PythonFile] {
	return runners.Sources[facts.PythonFile]{
		Namespace: Namespace, Version: Version, Ext: ".py", Open: func(name string) (io.ReadCloser, error) { return openFile(name) },
		Scanner: func() func(string, []byte) facts.PythonFile { return pyscan.NewScanner().Scan },
		Encode:  encodeFacts, Decode: decodeFacts,
	}
}

// openFile opens a file for reading; tests replace it to simulate I/O errors
// and to count the files read.
var openFile runners.OpenFunc = func(name string) (io.ReadCloser, error) { return os.Open(name) }
