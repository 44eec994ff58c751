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
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"

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
// root on GOMAXPROCS goroutines and returns their facts sorted by path.
// Paths that do not exist, symlinks and anything but regular files are left
// out (a symlink's target is scanned under its own path if it is in the
// repository). Any other failure to read a file is an error, as is a
// cancelled ctx.
func ScanFiles(ctx context.Context, root string, paths []string) ([]facts.PythonFile, error) {
	paths = slices.Clone(paths)
	slices.Sort(paths)
	paths = slices.Compact(paths)
	out := make([]facts.PythonFile, len(paths))
	keep := make([]bool, len(paths))
	errs := make([]error, len(paths))
	err := runners.Parallel(ctx, len(paths), runtime.GOMAXPROCS(0), func() func(int) {
		sc := NewScanner()
		var buf []byte
		return func(i int) {
			var src []byte
			var ok bool
			src, buf, ok, errs[i] = readRegular(filepath.Join(root, filepath.FromSlash(paths[i])), buf)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("scan %s: %w", paths[i], errs[i])
				return
			}
			if ok {
				out[i], keep[i] = sc.Scan(paths[i], src), true
			}
		}
	})
	if err != nil {
		return nil, err
	}
	if err := errors.Join(firstErrors(errs, 5)...); err != nil {
		return nil, err
	}
	files := out[:0]
	for i := range out {
		if keep[i] {
			files = append(files, out[i])
		}
	}
	return files, nil
}

// openFile opens a file for reading; tests replace it to simulate I/O errors.
var openFile = func(name string) (io.ReadCloser, error) { return os.Open(name) }

// readRegular reads the regular file at name into buf (grown as needed).
// ok is false, with no error, when name does not exist, is a symlink or is
// not a regular file.
func readRegular(name string, buf []byte) (src, scratch []byte, ok bool, err error) {
	info, err := os.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return nil, buf, false, nil
	case err != nil:
		return nil, buf, false, err
	case !info.Mode().IsRegular():
		return nil, buf, false, nil
	}
	f, err := openFile(name)
	if err != nil {
		return nil, buf, false, err
	}
	defer f.Close()
	size := int(info.Size()) + 1
	if cap(buf) < size {
		buf = make([]byte, size+size/4)
	}
	buf = buf[:cap(buf)]
	n := 0
	for {
		if n == len(buf) { // the file grew since Lstat
			buf = append(buf, 0)[:n]
			buf = buf[:cap(buf)]
		}
		m, err := f.Read(buf[n:])
		n += m
		if err == io.EOF {
			return buf[:n], buf, true, nil
		}
		if err != nil {
			return nil, buf, false, err
		}
	}
}

// firstErrors returns up to limit non-nil errors of errs, then a note of how
// many more there were.
func firstErrors(errs []error, limit int) []error {
	var out []error
	more := 0
	for _, e := range errs {
		if e == nil {
			continue
		}
		if len(out) < limit {
			out = append(out, e)
		} else {
			more++
		}
	}
	if more > 0 {
		out = append(out, fmt.Errorf("and %d more unreadable files", more))
	}
	return out
}
