// Package golang is the runner for the "go" namespace: the struct types and
// exported methods of every Go file in the repository, read with the
// standard library's go/parser. The go tool is never run and nothing is
// built or type-checked, so the facts are what the source says: an embedded
// pkg.T is reported as T, whichever package that is.
package golang

import (
	"context"
	"io"
	"os"
	"strings"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = "go"

// Runner gathers the "go" namespace.
type Runner struct{}

// New returns the go runner.
func New() *Runner { return &Runner{} }

// Namespace implements runners.Runner.
func (*Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner. It looks at every .go file of the
// repository (Scope.RepoFiles), whatever files the request names: a struct's
// methods may live in other files of its package, and embedded structs in
// other packages. A file that exists but cannot be read makes the namespace
// an error rather than leaving the file out.
func (*Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	all, err := s.RepoFiles(ctx)
	if err != nil {
		return facts.Error(err.Error())
	}
	var paths []string
	for _, p := range all {
		if strings.HasSuffix(p, ".go") {
			paths = append(paths, p)
		}
	}
	files, err := ScanFiles(ctx, s.Root, paths)
	if err != nil {
		return facts.Error(err.Error())
	}
	return facts.OK(facts.Go{Files: files})
}

// ScanFiles reads and parses the repo-relative, "/"-separated paths under
// root on GOMAXPROCS goroutines and returns their facts sorted by path, as
// runners.ScanSources does: paths that do not exist, symlinks and anything
// but regular files are left out; any other failure to read a file is an
// error, as is a cancelled ctx.
func ScanFiles(ctx context.Context, root string, paths []string) ([]facts.GoFile, error) {
	return runners.ScanSources(ctx, root, paths, openFile, func() func(string, []byte) facts.GoFile {
		return Scan
	})
}

// openFile opens a file for reading; tests replace it to simulate I/O errors.
var openFile runners.OpenFunc = func(name string) (io.ReadCloser, error) { return os.Open(name) }
