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
	"crypto/sha256"
	"encoding/hex"
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
	// The index loads while the listing runs: both mostly wait (on the
	// store, on git), and the warm path is little else.
	loaded := make(chan *cache.Index, 1)
	if r.st != nil {
		go func() { loaded <- cache.LoadIndex(ctx, r.st, Namespace, Version, s.Root) }()
	} else {
		loaded <- nil
	}
	all, err := s.RepoFiles(ctx)
	ix := <-loaded
	if err != nil {
		return facts.Error(err.Error())
	}
	var paths []string
	for _, p := range all {
		if strings.HasSuffix(p, ".py") {
			paths = append(paths, p)
		}
	}
	files, err := scanFiles(ctx, s.Root, paths, ix, r.now)
	if err != nil {
		return facts.Error(err.Error())
	}
	if ix != nil {
		ix.Retain(paths)
		_ = ix.Save(ctx) // the facts stand either way; a cache that cannot be written is only slower
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
	return scanFiles(ctx, root, paths, nil, time.Now)
}

// scanFiles is ScanFiles, answering from ix what it can and recording in it
// what it read.
func scanFiles(ctx context.Context, root string, paths []string, ix *cache.Index, now func() time.Time) ([]facts.PythonFile, error) {
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
			out[i], buf, keep[i], errs[i] = scanFile(sc, root, paths[i], buf, ix, now)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("scan %s: %w", paths[i], errs[i])
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

// scanFile returns the facts of the file at rel under root: from ix when its
// stamp is the one recorded there, else read into buf (grown as needed),
// scanned with sc and recorded in ix. ok is false, with no error, when the
// file does not exist, is a symlink or is not a regular file.
func scanFile(sc *Scanner, root, rel string, buf []byte, ix *cache.Index, now func() time.Time) (f facts.PythonFile, scratch []byte, ok bool, err error) {
	name := filepath.Join(root, filepath.FromSlash(rel))
	seen := now() // before the lstat: the stamp is no newer than this
	info, err := os.Lstat(name)
	if ix != nil && (err != nil || !info.Mode().IsRegular()) {
		ix.Forget(rel)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return f, buf, false, nil
	case err != nil:
		return f, buf, false, err
	case !info.Mode().IsRegular():
		return f, buf, false, nil
	}
	stamp, stamped := cache.StampOf(info)
	if ix != nil && stamped {
		if hit, ok := ix.Lookup(rel, stamp); ok {
			if f, ok := decodeFacts(rel, stamp.Size, hit.Payload); ok {
				return f, buf, true, nil
			}
		}
	}
	src, buf, err := readFile(name, info.Size(), buf)
	if err != nil {
		return f, buf, false, err
	}
	f = sc.Scan(rel, src)
	if ix != nil && stamped && int64(len(src)) == stamp.Size {
		if payload, ok := encodeFacts(f); ok {
			sum := sha256.Sum256(src)
			ix.Record(rel, stamp, seen, cache.Hit{SHA256: hex.EncodeToString(sum[:]), Payload: payload})
		}
	}
	return f, buf, true, nil
}

// openFile opens a file for reading; tests replace it to simulate I/O errors
// and to count the files read.
var openFile = func(name string) (io.ReadCloser, error) { return os.Open(name) }

// readFile reads the file at name, size bytes long when it was stamped, into
// buf (grown as needed; the file may have grown since).
func readFile(name string, size int64, buf []byte) (src, scratch []byte, err error) {
	f, err := openFile(name)
	if err != nil {
		return nil, buf, err
	}
	defer f.Close()
	if want := int(size) + 1; cap(buf) < want {
		buf = make([]byte, want+want/4)
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
			return buf[:n], buf, nil
		}
		if err != nil {
			return nil, buf, err
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
